"""docs/rules/DEVxxx.md are generated from the rule classes: `python -m devlint.lint.docs`."""
from __future__ import annotations

import sys
from pathlib import Path

from devlint.lint.rules import DOCUMENTED_BY_CODE

DOCS_DIR = Path("docs") / "rules"


def rendered() -> dict[str, str]:
    """File name -> content for every rule's page."""
    return {f"{rule.code}.md": rule.docs() for rule in DOCUMENTED_BY_CODE.values()}


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
