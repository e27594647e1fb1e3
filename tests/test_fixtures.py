"""Every fixture reports exactly its marked lines: bad files their `# error:` lines, good none."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, expected_findings, fixture_files
from devlint.lint.analyze import analyze_bytes

FILES = fixture_files()


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIXTURES)) for p in FILES])
def test_fixture_findings_match_expectations(path: Path) -> None:
    findings = analyze_bytes(path.read_bytes(), str(path))
    found = {(f.line, f.code) for f in findings}
    assert found == expected_findings(path), "\n".join(
        f"{f.line}:{f.column} {f.code} {f.message}" for f in findings
    )


def test_bad_fixtures_mark_something_and_good_ones_nothing() -> None:
    for path in FILES:
        marked = expected_findings(path)
        if path.name.startswith("bad_"):
            assert marked, f"{path} is a bad fixture without a `# error:` mark"
        else:
            assert not marked, f"{path} is a good fixture with a `# error:` mark"


@pytest.mark.parametrize("code", ["DEV001", "DEV002", "DEV003", "DEV004"])
def test_each_core_rule_has_enough_fixtures(code: str) -> None:
    folder = FIXTURES / code
    assert len(list(folder.glob("bad_*.py"))) >= 10
    assert len(list(folder.glob("good_*.py"))) >= 15


@pytest.mark.parametrize("code", [f"DEV{n:03d}" for n in range(5, 14)])
def test_each_newer_rule_has_enough_fixtures(code: str) -> None:
    folder = FIXTURES / code
    assert len(list(folder.glob("bad_*.py"))) >= 8
    assert len(list(folder.glob("good_*.py"))) >= 12


def test_bad_fixtures_of_a_rule_exercise_that_rule() -> None:
    for path in FILES:
        if path.name.startswith("bad_") and path.parent.name.startswith("DEV"):
            codes = {code for _, code in expected_findings(path)}
            assert path.parent.name in codes, f"{path} never expects {path.parent.name}"


def test_text_prefilter_skips_no_file_with_a_finding() -> None:
    """The text prefilter must change no result: every fixture with a finding passes it."""
    from devlint.lint.prefilter import could_match

    for path in FILES:
        text = path.read_text(encoding="utf-8")
        for code in {c for _, c in expected_findings(path)} - {"DEV999"}:
            assert could_match(text, [code]), f"{path}: {code} finding in a skipped file"
