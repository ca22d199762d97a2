"""Time model-free sibling clustering on a generated library and score it against the truth.

Usage: python bench/bench_cluster.py [--families N] [--skills N] [--singletons N] [--seed S]

The library (built here, in memory) holds curated skills in prefix families of siblings
(`pdf-extract-tables`, `pdf-extract-images`; sometimes the broad `pdf-extract` itself, and in
half the families a sibling named after its tool instead of the family: `camelot-tables-recipe`)
plus unrelated singletons, a fifth of them behind generic first words (`debug-`, `how-to-`).
Prints the clustering time, the number of clusters (target: one per family, none for
singletons) and how many families came back exactly (a cluster whose members are the family).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.clusters import Cluster, clusters

# name part | what it is called in prose | its tools
#     the things its skills work on (indented, may wrap)
DOMAINS_TABLE = """
pdf | PDF documents | pymupdf pdfplumber camelot qpdf ghostscript
    tables images text forms metadata fonts bookmarks annotations pages signatures outline
    attachments
csv | CSV files | pandas csvkit polars duckdb xsv
    columns rows headers encoding delimiters duplicates dates types quotes nulls joins totals
docker | Docker containers | buildx compose dive hadolint skopeo
    images layers volumes networks healthchecks registries secrets cache entrypoint logs ports
    labels
k8s | Kubernetes clusters | kubectl helm kustomize k9s stern
    pods deployments services ingress configmaps secrets namespaces probes quotas jobs nodes
    rollouts
git | git repositories | rebase bisect reflog worktree filter-repo
    branches commits tags submodules conflicts history hooks remotes stashes blame patches lfs
postgres | PostgreSQL databases | psql pgdump pgbouncer explain vacuum
    indexes queries locks replication schemas roles extensions partitions sequences triggers
    views backups
redis | Redis instances | redis-cli sentinel lua keyspace streams
    keys expiry memory persistence pubsub clusters eviction pipelines transactions scripts
    snapshots latency
terraform | Terraform infrastructure | tflint terragrunt atlantis infracost checkov
    state modules providers workspaces variables outputs plans imports drift locks backends
    resources
aws | AWS accounts | boto3 awscli cloudformation sam cdk
    buckets lambdas roles policies queues topics tables instances subnets alarms budgets keys
image | raster images | pillow imagemagick opencv vips exiftool
    thumbnails crops colors metadata formats watermarks masks resizing sprites icons collages
    exposure
audio | audio recordings | ffmpeg sox whisper librosa pydub
    transcripts silence loudness channels samples codecs clips speakers noise tempo waveforms
    chapters
video | video files | ffmpeg handbrake mediainfo mkvtoolnix yt-dlp
    subtitles frames codecs bitrates clips thumbnails chapters audio scenes resolution streams
    containers
email | email messages | imaplib smtplib mailparser procmail notmuch
    attachments headers threads filters drafts signatures bounces inbox labels templates
    replies spam
slack | Slack workspaces | slack-sdk bolt webhooks socket-mode blockkit
    channels messages threads reactions users files reminders bookmarks emoji mentions huddles
    canvases
latex | LaTeX documents | latexmk biber tectonic pandoc chktex
    citations figures tables equations fonts bibliography packages macros theorems margins
    appendices slides
excel | Excel workbooks | openpyxl xlsxwriter xlwings formulas pivot
    sheets formulas charts pivots cells ranges styles macros validation filters comments names
react | React applications | vite jest testing-library storybook eslint
    components hooks state props routing forms context effects suspense portals refs
    memoization
python | Python projects | pytest mypy ruff uv poetry
    packages imports typing fixtures coverage wheels venvs dependencies entrypoints decorators
    generators profiling
rust | Rust crates | cargo clippy rustfmt miri criterion
    lifetimes traits macros features workspaces borrow errors async unsafe generics benchmarks
    docs
nginx | nginx servers | certbot openresty njs ngxtop goaccess
    locations upstreams certificates redirects headers caching gzip ratelimits logs proxies
    rewrites websockets
grafana | Grafana dashboards | promql loki tempo alertmanager mimir
    panels queries alerts variables annotations datasources folders templates thresholds
    legends transformations snapshots
jira | Jira projects | jql rest-api automation confluence forge
    issues sprints epics boards workflows fields components versions filters transitions
    worklogs labels
notion | Notion workspaces | notion-api databases relations rollups formulas
    pages blocks databases properties templates comments mentions exports views filters sorts
    icons
arxiv | arXiv papers | arxiv-api semantic-scholar grobid zotero pdf2bib
    abstracts authors citations categories preprints versions references figures equations
    datasets venues surveys
sqlite | SQLite databases | sqlite-utils datasette fts5 litestream sqlcipher
    tables indexes triggers views pragmas transactions blobs attachments journals vacuum
    migrations collations
ssh | SSH connections | openssh mosh autossh sshuttle paramiko
    keys agents tunnels hosts configs certificates jumphosts forwarding fingerprints sessions
    multiplexing banners
calendar | calendar events | icalendar caldav gcal-api outlook-api rrule
    events invites recurrences timezones reminders attendees rooms availability holidays
    agendas exports conflicts
json | JSON documents | jq jsonschema orjson jsonpath ijson
    schemas paths arrays objects merges diffs keys streams pointers patches validation
    formatting
markdown | Markdown files | pandoc markdownlint mdformat remark mkdocs
    headings links tables footnotes frontmatter lists codeblocks images anchors toc admonitions
    quotes
web | web pages | playwright beautifulsoup httpx selenium trafilatura
    links forms tables screenshots cookies sessions sitemaps articles prices logins pagination
    downloads
"""
# name part | verb in prose | the words its skills use
ACTIONS_TABLE = """
extract | Extract | pull parse export capture scrape harvest dump selector structured
convert | Convert | transform target encoding mapping lossless roundtrip conversion
clean | Clean up | remove stale orphaned prune tidy duplicate junk leftover purge
audit | Audit | findings compliance inventory risk misconfiguration evidence severity
migrate | Migrate | upgrade cutover rollback compatibility deprecated transition
debug | Debug problems with | error trace reproduce symptom crash stacktrace diagnose
monitor | Monitor | metrics alert dashboard threshold uptime latency anomaly notify
backup | Back up | snapshot restore retention offsite integrity checksum recovery
optimize | Optimize | performance speed profile bottleneck tuning throughput benchmark
test | Test | fixture assertion coverage regression mock scenario harness flaky
"""
QUALIFIERS = ["batch", "remote", "legacy", "large", "incremental", "nightly"]
# Everyday prose every skill shares: the corpus-wide boilerplate TF-IDF must discount.
FILLER = """
first check the inputs then run the command carefully and verify the output before you report
back keep a log of failures retry with smaller batches when the service is slow prefer streaming
for large inputs record what worked and what did not ask before overwriting anything the person
cares about and leave the workspace clean afterwards
""".split()  # noqa: SIM905
# Subjects with nothing in common: one unrelated skill each.
# (Word lists read best as text; ruff's SIM905 would make them columns of quoted words.)
TOPICS = """
weather recipe invoice passport mortgage garden aquarium chess origami bicycle telescope
yoga sourdough knitting beekeeping pottery calligraphy sailing climbing birdwatching
astronomy genealogy podcast vinyl espresso kombucha bonsai tarot crossword sudoku
marathon triathlon skiing surfing fishing camping hiking kayaking archery fencing
pilates meditation journaling budgeting taxes retirement insurance warranty lease
wedding funeral graduation birthday anniversary holiday vacation visa customs
luggage hostel airline railway subway parking tolls fuel tyres brakes carwash
plumbing roofing flooring painting wallpaper insulation solar thermostat chimney gutters
lawn compost hedges orchard vineyard greenhouse hydroponics mushrooms herbs succulents
puppy kitten parrot hamster tortoise ferret rabbit goldfish iguana pony
violin cello ukulele harmonica drums trumpet flute saxophone choir opera
ballet salsa tango karaoke magic juggling puppetry improv standup mime
poetry haiku sonnet limerick novel memoir screenplay fanfic eulogy toast
volcano glacier tsunami earthquake hurricane tornado drought wildfire avalanche monsoon
dinosaur fossil meteorite comet eclipse aurora nebula quasar pulsar exoplanet
chemistry alchemy perfume candles soapmaking brewing distilling pickling smoking curing
quilting embroidery crochet weaving tailoring cobbling millinery jewelry engraving glassblowing
lighthouse castle cathedral pyramid aqueduct bridgework tunnelling canal dam windmill
carnival circus rodeo regatta jousting falconry dressage polo cricket curling
bowling billiards darts frisbee kites lego puzzles trivia bingo scrabble dominoes mahjong
""".split()  # noqa: SIM905
ASPECTS = ["planner", "tracker", "guide", "checklist", "calculator", "log", "tips", "faq"]
GENERIC_FIRST = ["debug", "fix", "how-to", "quick", "make"]
# Mid-frequency words singletons draw on: they share some by chance, as real skills do.
COMMON = """
schedule cost price time list summary plan notes budget photo map contact reminder
supplier season weekend morning safety beginner advanced kit checklist measure estimate
compare choose repair maintain store label order review rating friend family local
""".split()  # noqa: SIM905


Domain = tuple[str, str, list[str], list[str]]
Action = tuple[str, str, list[str]]


def _table(text: str) -> list[list[str]]:
    """Rows of `a | b | c` lines; an indented line continues the row's last field."""
    rows: list[list[str]] = []
    for line in text.strip().splitlines():
        if line.startswith(" "):
            rows[-1].append(line.strip())
        else:
            rows.append([field.strip() for field in line.split("|")])
    return [[*row[:3], " ".join(row[3:])] for row in rows]


DOMAINS: list[Domain] = [(a, b, c.split(), d.split()) for a, b, c, d in _table(DOMAINS_TABLE)]
ACTIONS: list[Action] = [(a, b, c.split()) for a, b, c, _ in _table(ACTIONS_TABLE)]


def family_skills(rng: random.Random, n_families: int, total: int) -> list[list[Candidate]]:
    """`n_families` families of 2-12 siblings, `total` skills in all."""
    pairs = [(d, a) for a in range(len(ACTIONS)) for d in range(len(DOMAINS))]
    if n_families > len(pairs):
        raise SystemExit(f"at most {len(pairs)} families can be generated")
    sizes = _sizes(rng, n_families, total)
    return [
        _family(rng, DOMAINS[d], ACTIONS[a], a, size)
        for (d, a), size in zip(pairs[:n_families], sizes, strict=True)
    ]


def _sizes(rng: random.Random, n: int, total: int) -> list[int]:
    if not 2 * n <= total <= 12 * n:
        raise SystemExit(f"{total} skills do not make {n} families of 2-12")
    sizes = [2] * n
    while sum(sizes) < total:
        k = rng.randrange(n)
        if sizes[k] < 12:
            sizes[k] += 1
    return sizes


def _family(
    rng: random.Random, domain: Domain, action: Action, index: int, size: int
) -> list[Candidate]:
    part, prose, tools, objects = domain
    verb_part, verb, action_words = action
    tool = tools[index % len(tools)]
    suffixes = [f"{o}-{q}" for q in QUALIFIERS for o in objects]
    chosen = rng.sample(objects, min(size, len(objects)))
    chosen += rng.sample(suffixes, size - len(chosen))
    prefix = f"{part}-{verb_part}"
    names = [f"{prefix}-{s}" for s in chosen]
    if size >= 4 and rng.random() < 0.3:
        names[0] = prefix  # the family's broad skill already exists
    # Named after its tool: only in a domain's first five families (one per tool), so that
    # two families' tool-named siblings never share a name prefix.
    if size >= 3 and index < len(tools) and rng.random() < 0.5:
        names[-1] = f"{tool.replace('-', '')}-{chosen[-1].split('-')[0]}-recipe"
    family = []
    for name, thing in zip(names, chosen, strict=True):
        words = thing.replace("-", " ")
        hints = " and ".join(rng.sample(action_words, 2))
        description = (
            f"{verb} {words} in {prose} with {tool} ({hints}); use when a {part} job "
            f"needs its {words} handled."
        )
        body = _body(rng, name, action, words, prose, tool, tools)
        support = (f"references/{thing.split('-')[0]}.md",) if rng.random() < 0.5 else ()
        uses = rng.randrange(0, 40)
        family.append(Candidate(name, f"{part}/{name}", description, body, support, uses))
    return family


def _body(
    rng: random.Random,
    name: str,
    action: Action,
    thing: str,
    prose: str,
    tool: str,
    tools: list[str],
) -> str:
    _, verb, action_words = action

    def filler(count: int) -> str:
        return " ".join(rng.choice(FILLER) for _ in range(count))

    other = rng.choice([t for t in tools if t != tool])
    steps = "\n".join(
        f"{i}. {filler(6).capitalize()} {rng.choice(action_words)} "
        f"({rng.choice([tool, other])} on the {thing})."
        for i in range(1, 7)
    )
    return (
        f"# {name}\n\n{verb} the {thing} of {prose} with {tool}: "
        f"{' '.join(rng.sample(action_words, 5))}. {filler(40)}\n\n"
        f"## Steps\n\n{steps}\n\n## Pitfalls\n\nWhen you {verb.lower()} the {thing}, "
        f"{filler(30)} {rng.choice(action_words)}. Fall back to {other} if {tool} fails.\n"
    )


def singleton_skills(rng: random.Random, count: int) -> list[Candidate]:
    """`count` unrelated skills, a fifth of them behind a generic first word."""
    if count > len(TOPICS):
        raise SystemExit(f"only {len(TOPICS)} singleton topics are defined")
    skills = []
    for i, topic in enumerate(TOPICS[:count]):
        aspect = ASPECTS[i % len(ASPECTS)]
        name = f"{topic}-{aspect}" if i % 5 else f"{GENERIC_FIRST[i // 5 % 5]}-{topic}-{aspect}"
        extras = " ".join(rng.sample(COMMON, 4))
        description = f"A {aspect} for {topic}: {extras}; use when someone asks about {topic}."
        body = (
            f"# {name}\n\nKeep the {topic} {aspect} current. "
            + " ".join(rng.choice(FILLER + COMMON) for _ in range(60))
            + f"\n\n## Steps\n\n1. Look up the {topic} details.\n2. Fill in the {aspect}.\n"
        )
        skills.append(Candidate(name, name, description, body, (), rng.randrange(0, 40)))
    return skills


def _timed(library: list[Candidate], repeat: int) -> tuple[list[Cluster], list[float]]:
    found: list[Cluster] = []
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        found = clusters(library)
        times.append(time.perf_counter() - start)
    return found, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--families", type=int, default=150)
    parser.add_argument("--skills", type=int, default=1000, help="skills in all")
    parser.add_argument("--singletons", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("-v", "--verbose", action="store_true", help="list inexact clusters")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    families = family_skills(rng, args.families, args.skills - args.singletons)
    loners = singleton_skills(rng, args.singletons)
    library = [c for f in families for c in f] + loners
    rng.shuffle(library)
    found, times = _timed(library, args.repeat)

    truth = {tuple(sorted(c.name for c in f)) for f in families}
    apart = sum(1 for f in families for c in f if c.name.endswith("-recipe"))
    loner_names = {c.name for c in loners}
    exact = sum(1 for c in found if c.members in truth)
    with_loners = [c for c in found if loner_names & set(c.members)]
    rng.shuffle(library)
    print(
        f"library: {len(library)} skills: {sum(map(len, families))} in {len(families)} "
        f"families ({apart} named apart from their family), {len(loners)} singletons"
    )
    print(
        f"clustering time: median {statistics.median(times) * 1000:.0f} ms "
        f"(min {min(times) * 1000:.0f} ms) over {args.repeat} runs"
    )
    print(f"clusters: {len(found)} (target {len(families)}: one per family, none for singletons)")
    print(f"families recovered exactly: {exact} of {len(families)}")
    print(
        f"singletons put in a cluster: {sum(len(loner_names & set(c.members)) for c in found)} "
        f"(in {len(with_loners)} clusters)"
    )
    print(f"same clusters for the input shuffled: {'yes' if clusters(library) == found else 'NO'}")
    if args.verbose:
        for c in found:
            if c.members not in truth:
                print("  inexact:", c.key, c.members)


if __name__ == "__main__":
    main()
