"""The LLM umbrella pass: the wording model, clusters, candidates, the prompt, the model client
(the only module that imports openai), proposal checks (pure), umbrella files, paths, names,
retention, and the near-duplicate guard."""
