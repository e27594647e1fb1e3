"""Each rule documents itself, and its documented examples are checked like fixtures."""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from conftest import FIXTURES, ROOT
from devlint.cli import main
from devlint.lint import docs
from devlint.lint.analyze import analyze_source
from devlint.core.codes import SPECIAL_CODES
from devlint.core.findings import Applicability
from devlint.lint.rules import ALL_RULES, unsafe_fix_codes

ENTRIES = docs.entries()


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_bad_example_produces_its_finding(rule) -> None:
    findings = analyze_source(textwrap.dedent(rule.bad), docs.example_file(rule))
    assert rule.code in {f.code for f in findings}


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_good_example_is_clean(rule) -> None:
    assert analyze_source(textwrap.dedent(rule.good), docs.example_file(rule)) == []


def test_generated_docs_are_in_sync() -> None:
    for name, text in docs.rendered().items():
        path = ROOT / docs.DOCS_DIR / name
        assert path.exists(), f"{path} is missing: run `python -m devlint.lint.docs`"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `python -m devlint.lint.docs`"


def test_readme_rule_table_links_every_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for entry in ENTRIES:
        assert f"[{entry.code}](docs/rules/{entry.code}.md)" in readme


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.code for e in ENTRIES])
def test_every_page_says_its_fix_kind_when_it_is_silent_and_how_to_silence_it(entry) -> None:
    page = docs.page(entry)
    assert re.search(r"^## When it stays silent\n\n\S", page, re.M), page
    assert re.search(r"^Fix kind: \*\*(safe|unsafe|none)\*\*", page, re.M)
    assert f"# devlint: noqa: {entry.code}" in page
    line_noqa = f"# noqa: {entry.code}\n" in page
    assert line_noqa == (entry not in SPECIAL_CODES)  # a file not checked is not one line's


@pytest.mark.parametrize("entry", SPECIAL_CODES, ids=[e.code for e in SPECIAL_CODES])
def test_a_line_noqa_never_hides_a_file_that_was_not_checked(entry) -> None:
    bad = textwrap.dedent(entry.bad).strip("\n")
    (finding,) = [f for f in analyze_source(bad + "\n", "example.py") if f.code == entry.code]
    lines = bad.splitlines()
    lines[finding.line - 1] += f"  # noqa: {entry.code}"
    assert entry.code in {f.code for f in analyze_source("\n".join(lines) + "\n", "example.py")}
    assert entry.code not in {f.code for f in analyze_source(
        f"# devlint: noqa: {entry.code}\n" + bad + "\n", "example.py")}


@pytest.mark.parametrize("entry", ALL_RULES, ids=[e.code for e in ALL_RULES])
def test_the_noqa_example_silences_the_example(entry) -> None:
    bad = textwrap.dedent(entry.bad).strip("\n")
    line = docs.noqa_example(entry).rsplit("  # noqa", 1)[0]
    number = bad.splitlines().index(line) + 1
    name = docs.example_file(entry)
    assert (number, entry.code) in {(f.line, f.code) for f in analyze_source(bad + "\n", name)}
    silenced = bad.replace(line, docs.noqa_example(entry), 1) + "\n"
    assert (number, entry.code) not in {(f.line, f.code) for f in analyze_source(silenced, name)}


def test_the_declared_fix_kind_is_the_kind_of_every_fix_offered() -> None:
    """A page saying "safe" for a rule whose fix moves code would be a lie --fix acts on."""
    from devlint.lint.runner import check_files
    from devlint.core.selection import Selection

    kinds: dict[str, set] = {}
    files = sorted(FIXTURES.rglob("bad_*.py"))
    for outcome in check_files(files, lambda path: Selection(), None, jobs=2):
        for finding in outcome.findings:
            if finding.fix is not None:
                kinds.setdefault(finding.code, set()).add(finding.fix.applicability)
    for rule in ALL_RULES:
        declared = {rule.fix_kind} if rule.fix_kind is not None else None  # None: no fix
        assert kinds.get(rule.code) == declared, rule.code


def test_unsafe_fixes_help_names_every_unsafe_rule(capsys) -> None:
    unsafe = unsafe_fix_codes()
    assert unsafe == [r.code for r in ALL_RULES if r.fix_kind is Applicability.UNSAFE] != []
    assert main(["check", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"also apply the fixes that move code ({', '.join(unsafe)})" in help_text


@pytest.mark.parametrize("asked", ["DEV999", "dev999", "cannot-parse", "hard-coded-cuda",
                                   *(s.code for s in SPECIAL_CODES)])
def test_devlint_rule_knows_special_codes_and_names(asked: str, capsys) -> None:
    assert main(["rule", asked]) == 0
    out = capsys.readouterr().out
    entry = docs.find(asked)
    assert out == docs.page(entry) and out.startswith(f"# {entry.code} {entry.name}\n")


def test_devlint_rule_all_lists_every_code(capsys) -> None:
    assert main(["rule", "--all"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == [e.code for e in ENTRIES]


def test_dev998_documents_itself_and_its_example_is_real(capsys) -> None:
    entry = docs.find("DEV998")
    assert "DEV998" in {f.code for f in analyze_source(textwrap.dedent(entry.bad), "example.py")}
    good = {f.code for f in analyze_source(textwrap.dedent(entry.good), "example.py")}
    assert "DEV998" not in good and "DEV001" in good  # the file is analysed once it reads
    assert main(["rule", "dev998"]) == 0
    assert capsys.readouterr().out == docs.page(entry)
    assert "[DEV998](docs/rules/DEV998.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
