"""SARIF, GitHub annotations, --output-file, --statistics, --show-source."""
from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from devlint.cli import main
from devlint.lint.findings import Finding, Location, Related
from devlint.lint.report import RunResult
from devlint.lint.report.github import format_finding as github_line
from devlint.lint.report.text import TextStyle, format_block

from conftest import FIXTURES, ROOT

SCHEMA = ROOT.parent / "shared" / "schemas" / "sarif-schema-2.1.0.json"


def check(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def sarif_of_fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("sarif") / "fixtures.sarif"
    assert main(["check", "--no-cache", "--format", "sarif", "-o", str(out), str(FIXTURES)]) == 1
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.skipif(not SCHEMA.exists(), reason=f"the official SARIF schema is not at {SCHEMA}")
def test_sarif_of_the_fixtures_validates_against_the_official_schema(sarif_of_fixtures: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator(schema).validate(sarif_of_fixtures)


def test_sarif_carries_rules_locations_related_locations_and_fixes(sarif_of_fixtures: dict) -> None:
    run = sarif_of_fixtures["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules][:13] == [f"DEV{n:03d}" for n in range(1, 14)]
    assert all(r["id"] == "DEV999" or "Use instead" in r["help"]["markdown"] for r in rules)
    results = run["results"]
    assert len(results) > 150
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    assert any("relatedLocations" in r for r in results)
    fixed = [r for r in results if "fixes" in r]
    assert fixed and all(r["fixes"][0]["artifactChanges"][0]["replacements"] for r in fixed)


def test_a_sarif_fix_applied_by_offsets_is_the_fix_devlint_writes(tmp_path: Path, capsys) -> None:
    """Code scanning applies `fixes` by offsets: they must give what `--fix` writes."""
    compared = 0
    for source in sorted(FIXTURES.glob("DEV00[15]/bad_*.py")):
        target = tmp_path / source.name
        target.write_bytes(source.read_bytes())
        _, out, _ = check(capsys, "--format", "sarif", "--no-cache", str(target))
        results = json.loads(out)["runs"][0]["results"]
        if len(results) != 1 or "fixes" not in results[0]:
            continue
        text = target.read_text(encoding="utf-8")
        replacements = results[0]["fixes"][0]["artifactChanges"][0]["replacements"]
        for r in sorted(replacements, key=lambda r: -r["deletedRegion"]["charOffset"]):
            start = r["deletedRegion"]["charOffset"]
            text = text[:start] + r["insertedContent"]["text"] + text[start + r["deletedRegion"]["charLength"]:]
        check(capsys, "--fix", "--unsafe-fixes", str(target))
        assert text == target.read_text(encoding="utf-8"), source
        compared += 1
    assert compared >= 3


def test_github_annotations_escape_what_workflow_commands_need() -> None:
    finding = Finding("dir,x/a:b.py", 3, 7, "DEV002", "50% of\nthe batch")
    assert github_line(finding) == (
        "::error file=dir%2Cx/a%3Ab.py,line=3,col=7,title=DEV002::DEV002 50%25 of%0Athe batch")


def test_github_format_through_the_cli(capsys) -> None:
    code, out, _ = check(capsys, "--format", "github", "--no-cache", str(FIXTURES / "DEV001"))
    lines = out.splitlines()
    assert code == 1 and lines
    assert all(re.fullmatch(r"::error file=[^,]+,line=\d+,col=\d+,title=DEV\d{3}::DEV\d{3} .+", l)
               for l in lines), lines[:3]


def test_output_file_takes_the_report_and_statistics_count_per_code(tmp_path: Path, capsys) -> None:
    report = tmp_path / "report.txt"
    code, out, _ = check(capsys, "--no-cache", "--statistics", "-o", str(report), str(FIXTURES / "DEV002"))
    assert code == 1 and out == ""
    text = report.read_text(encoding="utf-8")
    findings = [l for l in text.splitlines() if re.match(r".+:\d+:\d+: DEV\d{3} ", l)]
    stats = {code: int(n) for n, code in re.findall(r"^(\d+)\s+(DEV\d{3}) ", text, re.M)}
    assert stats == dict(Counter(l.split(": ")[1].split()[0] for l in findings))


def test_statistics_keep_json_a_single_document(capsys) -> None:
    code, out, err = check(capsys, "--no-cache", "--statistics", "--format", "json", str(FIXTURES / "DEV001"))
    assert json.loads(out)["findings"] and re.search(r"^\d+\s+DEV001 ", err, re.M)


def test_output_file_in_a_missing_directory_is_a_usage_error(tmp_path: Path, capsys) -> None:
    code, _, err = check(capsys, "-o", str(tmp_path / "no" / "such" / "f.txt"), str(FIXTURES / "DEV001"))
    assert code == 2 and err.startswith("devlint: error: --output-file")


def test_show_source_puts_a_caret_under_the_column(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text("x = 1\n\tmodel.to('cuda')\n", encoding="utf-8")
    finding = Finding(str(path), 2, 11, "DEV001", "hard-coded")
    block = format_block(finding, TextStyle(show_source=True)).splitlines()
    assert block[1] == "    \tmodel.to('cuda')"
    assert block[2] == "    \t         ^"
    assert block[1][block[2].index("^")] == "'"


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert TextStyle.for_stream(Terminal()).color
    assert not TextStyle.for_stream(io.StringIO()).color
    monkeypatch.setenv("NO_COLOR", "1")
    assert not TextStyle.for_stream(Terminal()).color
    finding = Finding("a.py", 1, 1, "DEV001", "m", Related(Location(1, 1), "here"))
    assert "\033[" in format_block(finding, TextStyle(color=True))
