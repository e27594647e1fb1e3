"""Whether held-out candidates were used before: every name a repo may go by, searched in
everything that lists used repos.

    python benchmarks/heldout/check_names.py owner/name[=Project,Names] [owner/name ...]
    python benchmarks/heldout/check_names.py --list setN/splitN_candidates.txt

A repo is written in prose under its project name far more often than as owner/name
(docs/accuracy.md says "GLIDE", "OpenFlamingo", "Descript audio codec"): sets 18 and 19 missed
five used repos by searching owner and repository names only. Each candidate is searched as its
owner/name, its repository name, that name without a framework affix (`-pytorch`,
`.pytorch`, `pytorch-`, `torch`) when that leaves a word of its own, its words joined with
nothing, spaces, hyphens or underscores (`open_flamingo` -> `OpenFlamingo`,
`descript-audio-codec` -> `Descript audio codec`), its first word when that is five letters or
more and not a common one (`glide-text2im` -> `GLIDE`), and any project name given after `=`
(`jeonsworld/ViT-pytorch=ViT`), each as a whole word, case-insensitively. Hits are printed with their file and line; the exit status is 1 when any
candidate has one. A hit is a lead to read, not a verdict: a common word may match an unrelated
repo (decide by reading, and say so in the candidate list).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEARCHED = ("docs", "benchmarks/heldout", "benchmarks/ecosystem", "benchmarks/recall")
SUFFIXES = re.compile(r"([-_.]?(pytorch|torch|pt|tf|official))+$", re.I)
PREFIXES = re.compile(r"^((pytorch|torch)[-_.]?)+", re.I)


# Words too common to stand for a repo on their own (`segment-anything` is not "segment").
STOP = frozenset("""open video segment image images model models deep simple fast graph light
    neural learning pretrained awesome example examples tutorial tutorials official super style
    diffusion vision audio speech text language generative transformer transformers attention
    stable real time robust easy mini tiny micro nano train training data dataset""".split())


def variants(repo: str, extra: tuple = ()) -> set:
    """The names `repo` may go by (see the module's docs); `extra`: project names given by hand
    (`openai/glide-text2im=GLIDE`)."""
    owner, _, name = repo.partition("/")
    stripped = PREFIXES.sub("", SUFFIXES.sub("", name)) or name
    words = [w for w in re.split(r"[-_.\s]+", stripped) if w]
    found = {repo, name, *extra}
    if stripped != name and len(stripped) >= 4 and stripped.lower() not in STOP:
        found.add(stripped)
    if len(words) > 1:
        for joiner in ("", " ", "-", "_"):
            found.add(joiner.join(words))
        if len(words[0]) >= 5 and words[0].lower() not in STOP:
            found.add(words[0])  # `glide-text2im` -> "GLIDE"
    return {v for v in found if len(v) >= 3}


def files() -> list:
    out = []
    for folder in SEARCHED:
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.suffix not in (".md", ".txt", ".tsv", ".toml", ".json", ".csv"):
                continue
            if folder == "benchmarks/recall" and not path.name.startswith("README"):
                continue  # the recall sets' scripts are code, not lists of repos
            out.append(path)
    return out


def hits(repo: str, texts: dict, own: Path | None) -> list:
    repo, _, names = repo.partition("=")
    extra = tuple(n.strip() for n in names.split(",") if n.strip())
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(v)}(?![\w-])"
                                  for v in sorted(variants(repo, extra), key=len, reverse=True)), re.I)
    found = []
    for path, lines in texts.items():
        if own is not None and path == own:
            continue
        for number, line in enumerate(lines, start=1):
            match = pattern.search(line)
            if match:
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}: {line.strip()[:120]}")
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="*")
    parser.add_argument("--list", type=Path, help="a candidate file (owner/name per line, # comments)")
    args = parser.parse_args(argv)
    repos = list(args.repos)
    own = args.list.resolve() if args.list else None
    if args.list:
        repos += [line.strip() for line in args.list.read_text().splitlines()
                  if line.strip() and not line.lstrip().startswith("#")]
    if not repos:
        parser.error("name at least one owner/name")
    texts = {p: p.read_text(encoding="utf-8", errors="replace").splitlines() for p in files()}
    used = 0
    for repo in repos:
        found = hits(repo, texts, own)
        print(f"{repo}: {'used? ' + str(len(found)) + ' hit(s)' if found else 'not found'}")
        for line in found[:8]:
            print(f"  {line}")
        used += bool(found)
    return 1 if used else 0


if __name__ == "__main__":
    sys.exit(main())
