"""No address the project does not own: `devlint.home.HOME` is the one place a URL of
devlint's own may be written, every link to the project is derived from it, and a field whose
link is unknown is left out (never an empty or a borrowed address).

The rule for other URLs: a host URL (http:// or https://) may appear in the sources, the
metadata, the Action, the workflows, the README and docs/ only when its host is in `EXTERNAL`,
a short list of other projects' own documented addresses and standards' identifiers, each with
the reason it is there; and never when it names devlint (an address of the project belongs in
HOME). github.com and gitlab.com are in no list: any repository URL there would be a home.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from devlint import home
from devlint.lint.report import RunResult

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - 3.9/3.10
    import tomli as tomllib

EXTERNAL = {
    "download.pytorch.org": "PyTorch's documented index of CPU-only wheels",
    "json-schema.org": "the JSON Schema dialect a schema declares in `$schema`",
    "docs.oasis-open.org": "SARIF's schema, named by `$schema` in every SARIF report",
    "bford.info": "the text a CACHEDIR.TAG must carry, by its specification",
    "git-lfs.github.com": "the first line of every Git LFS pointer file, by its specification",
    "pre-commit.com": "pre-commit's documentation",
    "marketplace.visualstudio.com": "the third-party LSP client extension for VS Code",
    "www.schemastore.org": "where editors find schemas for pyproject.toml tables",
    "docs.gitlab.com": "GitLab's documentation of the Code Quality report",
    "pypi.org": "pip's default package index, where the ecosystem check's corpus comes from",
}
URL = re.compile(r"https?://[^\s)\]>\"'`]+")
TEXT_SUFFIXES = {".py", ".json", ".toml", ".yml", ".yaml", ".md", ".cfg", ".txt", ".sh", ""}


def published_files() -> list[Path]:
    """What a user reads or runs: the package, its metadata, the Action, CI, README, docs."""
    roots = [ROOT / "src", ROOT / "docs", ROOT / ".github", ROOT / "scripts", ROOT / ".ci"]
    files = [ROOT / name for name in ("pyproject.toml", "action.yml", "README.md",
                                      ".pre-commit-hooks.yaml", "MANIFEST.in")]
    for root in roots:
        files += [p for p in root.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES
                  and "__pycache__" not in p.parts
                  and not any(part.endswith(".egg-info") for part in p.parts)]  # build output
    return [p for p in files if p.exists() and p != ROOT / "src" / "devlint" / "home.py"]


def foreign_urls(text: str) -> list[str]:
    bad = []
    for url in URL.findall(text):
        host = url.split("/")[2].lower()
        if host not in EXTERNAL or "devlint" in url.lower():
            bad.append(url)
    return bad


def test_no_host_url_outside_the_home_constant() -> None:
    found = {str(p.relative_to(ROOT)): foreign_urls(p.read_text(encoding="utf-8", errors="replace"))
             for p in published_files()}
    assert {path: urls for path, urls in found.items() if urls} == {}


def test_the_rule_catches_a_borrowed_address_and_lets_a_reference_through() -> None:
    assert foreign_urls("git clone https://github.com/devlint/devlint") == [
        "https://github.com/devlint/devlint"]
    assert foreign_urls("see <https://gitlab.com/someone/else>") == ["https://gitlab.com/someone/else"]
    assert foreign_urls("pip install torch --index-url https://download.pytorch.org/whl/cpu") == []
    assert foreign_urls("https://download.pytorch.org/devlint") != []


def test_the_home_is_empty_until_the_project_has_one() -> None:
    assert home.HOME == "" and home.home_url() is None and home.rule_docs_url("DEV001") is None


def test_no_project_urls_without_a_home() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    if home.HOME:
        assert all(url.startswith(home.HOME) for url in project["urls"].values())
    else:
        assert "urls" not in project


def test_the_shipped_schema_claims_no_address() -> None:
    schema = json.loads((ROOT / "src" / "devlint" / "schemas" / "check-report.schema.json")
                        .read_text(encoding="utf-8"))
    assert "$id" not in schema or schema["$id"].startswith(home.HOME or "\0")


def sarif_driver() -> dict:
    from devlint.lint.report.sarif import render

    return json.loads(render(RunResult()))["runs"][0]["tool"]["driver"]


def test_sarif_leaves_the_links_out_without_a_home() -> None:
    driver = sarif_driver()
    assert "informationUri" not in driver
    assert driver["rules"] and not any("helpUri" in rule for rule in driver["rules"])


def test_every_link_is_derived_from_the_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(home, "HOME", "https://example.invalid/someone/devlint")
    driver = sarif_driver()
    assert driver["informationUri"] == "https://example.invalid/someone/devlint"
    assert driver["rules"][0]["helpUri"] == (
        "https://example.invalid/someone/devlint/blob/main/docs/rules/DEV001.md")


def test_the_editor_links_follow_the_home(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("lsprotocol")
    from devlint.server import actions, diagnostics

    assert diagnostics._docs_link("DEV001") is None
    assert "documentation](" not in actions._rule_hover("DEV001", ["a message"])
    monkeypatch.setattr(home, "HOME", "https://example.invalid/x")
    assert diagnostics._docs_link("DEV001").href.endswith("/docs/rules/DEV001.md")
    assert "[DEV001 documentation](https://example.invalid/x/" in actions._rule_hover("DEV001", ["m"])
