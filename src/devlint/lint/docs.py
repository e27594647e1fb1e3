"""Rule pages, rendered from the rule classes and the special codes: what `devlint rule CODE`
prints, SARIF's help text, and docs/rules/CODE.md (`python -m devlint.lint.docs` writes them;
a test keeps them in sync).

Every page says what the rule finds, when it stays silent, why the bug matters, an example and
its correction, the fix and its kind (safe or unsafe), and how to silence it.
"""
from __future__ import annotations

import functools
import sys
import textwrap
from pathlib import Path

from devlint.core.codes import SPECIAL_CODES
from devlint.core.findings import Applicability

DOCS_DIR = Path("docs") / "rules"

FIX_KINDS = {
    Applicability.SAFE: "Fix kind: **safe**. `devlint check --fix` applies it where it is offered: "
                        "it changes only where tensors live.",
    Applicability.UNSAFE: "Fix kind: **unsafe**. Only `devlint check --fix --unsafe-fixes` applies "
                          "it: it moves code, so review the change.",
    None: "Fix kind: **none**. devlint has no automatic fix for it.",
}


def entries() -> list:
    """Every documented code: the rules in code order, then the special codes."""
    from devlint.lint.rules import ALL_RULES

    return [*ALL_RULES, *SPECIAL_CODES]


def find(name: str):
    """A rule or special code by its code (`dev002`) or its name (`hard-coded-cuda`)."""
    wanted = name.strip().lower()
    return next((e for e in entries() if wanted in (e.code.lower(), e.name)), None)


def page(entry) -> str:
    """One code's documentation as Markdown."""
    return "\n".join([
        f"# {entry.code} {entry.name}", "", entry.summary, "",
        "## What it does", "", _dedent(entry.what), "",
        "## When it stays silent", "", _dedent(entry.silent), "",
        "## Why is this bad", "", _dedent(entry.why), "",
        "## Example", "", "```python", _dedent(entry.bad), "```", "",
        "## Use instead", "", "```python", _dedent(entry.good), "```", "",
        "## Fix", "", FIX_KINDS[entry.fix_kind], "", _dedent(entry.fix), "",
        "## Silence it", "", *_silencing(entry), "",
    ])


def _silencing(entry) -> list[str]:
    if entry in SPECIAL_CODES:  # a file not checked: one line's comment must not hide that
        on_its_line = [f"Not on its line: `# noqa: {entry.code}` there does not silence it.", ""]
    else:
        on_its_line = ["On its line, with flake8's syntax (one comment serves flake8 too):", "",
                       "```python", noqa_example(entry), "```", ""]
    return [
        *on_its_line,
        f"In a whole file, on a comment line of its own: `# devlint: noqa: {entry.code}`. "
        f"For a set of files, in `[tool.devlint]`: "
        f'`per-file-ignores = {{ "scripts/*" = ["{entry.code}"] }}`.',
    ]


@functools.lru_cache(maxsize=None)
def noqa_example(entry: type) -> str:
    """The line of the example that the code is reported on, with its `# noqa`."""
    from devlint.lint.analyze import analyze_source
    from devlint.core.selection import Selection

    bad = _dedent(entry.bad)
    findings = [f for f in analyze_source(bad + "\n", example_file(entry)) if f.code == entry.code]
    line = bad.splitlines()[findings[0].line - 1] if findings else bad.splitlines()[0]
    return f"{line}  # noqa: {entry.code}"


def example_file(entry: type) -> str:
    """The file name a code's examples are checked under (a test rule's are test modules)."""
    return getattr(entry, "example_file", "example.py")


def _dedent(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def rendered() -> dict[str, str]:
    """File name -> content for every code's page."""
    return {f"{entry.code}.md": page(entry) for entry in entries()}


def write(root: Path) -> list[Path]:
    target = root / DOCS_DIR
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in rendered().items():
        path = target / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1] if len(sys.argv) > 1 else ".")):
        print(f"wrote {path}")
