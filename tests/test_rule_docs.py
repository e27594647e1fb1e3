"""Each rule documents itself, and its documented examples are checked like fixtures."""
from __future__ import annotations

import textwrap

import pytest

from conftest import ROOT
from devlint.lint import docs
from devlint.lint.analyze import analyze_source
from devlint.lint.rules import ALL_RULES


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_bad_example_produces_its_finding(rule) -> None:
    findings = analyze_source(textwrap.dedent(rule.bad), "example.py")
    assert rule.code in {f.code for f in findings}


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_good_example_is_clean(rule) -> None:
    assert analyze_source(textwrap.dedent(rule.good), "example.py") == []


def test_generated_docs_are_in_sync() -> None:
    for name, text in docs.rendered().items():
        path = ROOT / docs.DOCS_DIR / name
        assert path.exists(), f"{path} is missing: run `python -m devlint.lint.docs`"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `python -m devlint.lint.docs`"


def test_readme_rule_table_links_every_rule() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for rule in ALL_RULES:
        assert f"[{rule.code}](docs/rules/{rule.code}.md)" in readme


def test_dev998_documents_itself_and_its_example_is_real(capsys) -> None:
    from devlint.cli import main
    from devlint.lint.rules import DOCUMENTED_BY_CODE

    page = DOCUMENTED_BY_CODE["DEV998"]
    assert "DEV998" in {f.code for f in analyze_source(textwrap.dedent(page.bad), "example.py")}
    assert "DEV998" not in {f.code for f in analyze_source(textwrap.dedent(page.good), "example.py")}
    assert main(["rule", "dev998"]) == 0
    assert capsys.readouterr().out == page.docs()
    assert "[DEV998](docs/rules/DEV998.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
