"""The project's home: the one place a URL of devlint's own may be written.

devlint has no public home yet, so `HOME` is empty and every field that would carry a link to
it is left out (SARIF's `informationUri` and `helpUri`, the editor's diagnostic links and
hover link). When the project gets a home, set `HOME` to its repository's address (no trailing
slash) and the links appear everywhere at once. `tests/test_home.py` fails on any other host
URL of the project written in the sources, the metadata or the docs.
"""
from __future__ import annotations

from typing import Optional

HOME = ""
BRANCH = "main"


def home_url() -> Optional[str]:
    """The project's home page, or None while it has none."""
    return HOME or None


def repository_file_url(path: str) -> Optional[str]:
    """A file of the repository as a page at the home (`docs/rules/DEV001.md`), or None."""
    return f"{HOME}/blob/{BRANCH}/{path}" if HOME else None


def rule_docs_url(code: str) -> Optional[str]:
    """The documentation page of a rule code, or None while the project has no home."""
    return repository_file_url(f"docs/rules/{code}.md")
