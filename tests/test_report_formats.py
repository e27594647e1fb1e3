"""SARIF, GitHub annotations, --output-file, --statistics, --show-source."""
from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from devlint.cli import main
from devlint.core.findings import Finding, Location, Related
from devlint.lint.report import RunResult
from devlint.lint.report.github import format_finding as github_line
from devlint.lint.report.text import TextStyle, format_block

from conftest import FIXTURES, ROOT

SCHEMA = ROOT / "tests" / "data" / "sarif-schema-2.1.0.json"  # vendored: see tests/data/README.md


def check(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def sarif_of_fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("sarif") / "fixtures.sarif"
    assert main(["check", "--no-cache", "--format", "sarif", "-o", str(out), str(FIXTURES)]) == 1
    return json.loads(out.read_text(encoding="utf-8"))


def test_sarif_of_the_fixtures_validates_against_the_official_schema(sarif_of_fixtures: dict) -> None:
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(sarif_of_fixtures), key=str)
    assert not errors, errors[0]
    assert any("logicalLocations" in r["locations"][0] for r in sarif_of_fixtures["runs"][0]["results"])


def test_sarif_fingerprints_follow_the_line_not_its_number(tmp_path: Path, capsys) -> None:
    """Code scanning matches alerts across commits by partialFingerprints: an edit above a
    finding must not turn it into a new alert, and two identical lines stay two alerts."""
    path = tmp_path / "t.py"
    # (the fallback on the last lines makes each function's literal a slip of its own: three
    # findings on three identical lines)
    body = ("import torch\ndef a():\n    return torch.device('cuda')\ndef b():\n    return torch.device('cuda')\n"
            "def c():\n    return torch.device('cuda')\n"
            "f = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nx = torch.zeros(1, device=f)\n")

    def fingerprints() -> list[str]:
        _, out, _ = check(capsys, "--no-cache", "--format", "sarif", str(path))
        return [r["partialFingerprints"]["primaryLocationLineHash"]
                for r in json.loads(out)["runs"][0]["results"]]

    path.write_text(body, encoding="utf-8")
    before = fingerprints()
    path.write_text("# a comment\n\n" + body, encoding="utf-8")
    assert fingerprints() == before
    assert len(set(before)) == 3 and before[0].split(":")[0] == before[2].split(":")[0]


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


def _apply_sarif_fixes(results: list[dict], text: str) -> str:
    replacements = [r for result in results if "fixes" in result
                    for r in result["fixes"][0]["artifactChanges"][0]["replacements"]]
    for r in sorted(replacements, key=lambda r: -r["deletedRegion"]["charOffset"]):
        start = r["deletedRegion"]["charOffset"]
        text = text[:start] + r["insertedContent"]["text"] + text[start + r["deletedRegion"]["charLength"]:]
    return text


def test_a_sarif_fix_applied_by_offsets_is_the_fix_devlint_writes(tmp_path: Path, capsys) -> None:
    """Code scanning applies `fixes` by offsets: they must give what `--fix` writes.

    `--fix` checks again after it writes and applies what the fixed text then shows (a device
    chosen by one fix can make a `torch.load` need `map_location=device`), so the SARIF side is
    applied the same way: fix, check the fixed text again, until it offers no fix.
    """
    compared = 0
    for source in sorted(FIXTURES.glob("DEV00[15]/bad_*.py")):
        target = tmp_path / source.name
        target.write_bytes(source.read_bytes())
        _, out, _ = check(capsys, "--format", "sarif", "--no-cache", str(target))
        results = json.loads(out)["runs"][0]["results"]
        if len(results) != 1 or "fixes" not in results[0]:
            continue
        scanned = tmp_path / "scanned" / source.name
        scanned.parent.mkdir(exist_ok=True)
        scanned.write_text(_apply_sarif_fixes(results, source.read_text(encoding="utf-8")), encoding="utf-8")
        for _ in range(5):
            _, out, _ = check(capsys, "--format", "sarif", "--no-cache", str(scanned))
            results = json.loads(out)["runs"][0]["results"]
            if not any("fixes" in r for r in results):
                break
            scanned.write_text(_apply_sarif_fixes(results, scanned.read_text(encoding="utf-8")),
                               encoding="utf-8")
        check(capsys, "--fix", "--unsafe-fixes", str(target))
        assert scanned.read_text(encoding="utf-8") == target.read_text(encoding="utf-8"), source
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


def test_json_output_validates_against_the_schema_the_package_ships(tmp_path: Path, capsys) -> None:
    import importlib.resources

    import jsonschema

    schema = json.loads((importlib.resources.files("devlint") / "schemas" / "check-report.schema.json")
                        .read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    _, fixtures, _ = check(capsys, "--no-cache", "--format", "json", str(FIXTURES), str(tmp_path / "gone.py"))
    payload = json.loads(fixtures)
    validator.validate(payload)
    findings = payload["findings"]
    # every optional part appears at least once: notebooks, related places, both fix kinds
    assert any("cell" in f and "in_file" in f["related"] for f in findings if "related" in f)
    assert {f["fix"]["applicability"] for f in findings if "fix" in f} == {"safe", "unsafe"}
    assert payload["errors"]
    target = tmp_path / "t.py"
    target.write_text("import torch\nd = torch.device('cuda')\n", encoding="utf-8")
    _, fixed, _ = check(capsys, "--fix", "--format", "json", str(target))
    assert json.loads(fixed)["fixed"] == 1
    validator.validate(json.loads(fixed))
    broken = {**payload, "findings": [{**findings[0], "line": 0}]}
    assert not validator.is_valid(broken)
