"""The LLM umbrella pass, pure but for the model client and its retry policy.

wording (the word model: tokens, stop words, counts, TF-IDF, spellings) under clusters
(name families, wording_links, grouping), near_duplicates and retention; eligibility (who may
be folded, and the reasons a skill is left out, worded once), candidates, prompt,
proposal_checks (a proposed umbrella against the rules, as tree changes), files, paths, names;
model_reply (response formats, the reply cap, reading a completion) and model_errors (the
error and its words), pure; model_client, the only module that imports openai (each request
bounded end to end), and model_retries (when to try again, and sleeping), the two here doing
I/O. May import
skills/, lifecycle/, config and timeutil; never store/, and no module that does I/O.
"""
