"""What a ruff user reaches for in the first week: --add-noqa, "did you mean", --select ALL,
--output-format concise|full|gitlab, --extend-exclude, `# flake8: noqa`, rule names in
--statistics, fix edits and end positions in JSON."""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from devlint.cli import main

BUGGY = textwrap.dedent("""\
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset

    device = torch.device("cuda")
    model = nn.Linear(4, 2).to(device)
    loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randint(0, 2, (8,))), batch_size=4)
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        loss = criterion(model(x), y)  # noqa: E501
    """)


def check(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(["check", "--no-cache", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def project(tmp_path: Path, config: str = "") -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[tool.devlint]\n{config}", encoding="utf-8")
    return tmp_path


# --add-noqa

def test_add_noqa_silences_every_finding_and_a_second_run_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = project(tmp_path) / "train.py"
    path.write_bytes(BUGGY.replace("\n", "\r\n").encode("utf-8"))
    code, out, _ = check(capsys, str(path))
    found = len(re.findall(r": DEV\d{3} ", out))
    assert code == 1 and found >= 2
    code, out, err = check(capsys, "--add-noqa", str(path))
    assert code == 0 and err == "" and out == f"Added {found} noqa directives to 1 file.\n"
    text = path.read_bytes().decode("utf-8")
    assert 'torch.device("cuda")  # noqa: DEV001\r\n' in text
    assert "# noqa: E501, DEV" in text  # joined to the noqa already there, not a second one
    assert text.count("\r\n") == BUGGY.count("\n")  # the line breaks kept
    assert check(capsys, str(path))[0] == 0
    before = path.read_bytes()
    code, out, _ = check(capsys, "--add-noqa", str(path))
    assert code == 0 and out == "Added 0 noqa directives to 0 files.\n"
    assert path.read_bytes() == before


def test_add_noqa_names_what_a_line_comment_cannot_silence(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = project(tmp_path) / "broken.py"
    path.write_text("def f(:\n", encoding="utf-8")
    code, out, err = check(capsys, "--add-noqa", str(path))
    assert code == 1 and "DEV999" in err and "per-file-ignores" in err
    assert path.read_text(encoding="utf-8") == "def f(:\n"
    inside = tmp_path / "inside.py"  # a comment at the line's end would be inside the string
    inside.write_text('import torch\nx = torch.zeros(2).cuda(); s = """\nabc"""\n', encoding="utf-8")
    code, out, err = check(capsys, "--add-noqa", str(inside))
    assert code == 1 and "inside.py:2:" in err and "ends inside a string" in err
    assert "noqa" not in inside.read_text(encoding="utf-8")


def test_add_noqa_refuses_fix_and_standard_input(capsys: pytest.CaptureFixture) -> None:
    assert check(capsys, "--add-noqa", "--fix", ".")[0] == 2
    assert check(capsys, "--add-noqa", "-")[0] == 2


# did you mean

@pytest.mark.parametrize("args, suggestion", [
    (["check", "--selct", "DEV001"], "'--select'"),
    (["check", "--select", "DEV0002"], "'DEV002'"),
    (["check", "--format", "jsn"], "'json'"),
    (["chek"], "'check'"),
    (["rule", "hard-coded-cud"], "'hard-coded-cuda'"),
])
def test_a_misspelling_gets_did_you_mean(args: list[str], suggestion: str,
                                         capsys: pytest.CaptureFixture) -> None:
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2 and f"did you mean {suggestion}?" in err


def test_a_misspelt_config_key_gets_did_you_mean(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    project(tmp_path, 'extend-exlude = ["x"]\n')
    (tmp_path / "t.py").write_text("x = 1\n", encoding="utf-8")
    code, _, err = check(capsys, str(tmp_path))
    assert code == 2 and "did you mean 'extend-exclude'?" in err


# --select ALL

def test_select_all_is_every_code(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = str(FIXTURES / "DEV001")
    everything = check(capsys, "--select", "DEV", target)[1]
    assert check(capsys, "--select", "ALL", target)[1] == everything
    project(tmp_path, 'select = ["all"]\nignore = ["DEV001"]\n')
    (tmp_path / "t.py").write_text(BUGGY, encoding="utf-8")
    code, out, _ = check(capsys, str(tmp_path))
    assert code == 1 and "DEV001" not in out and "DEV002" in out


# --output-format concise|full

def test_concise_is_the_text_format_and_full_adds_the_source(capsys: pytest.CaptureFixture) -> None:
    target = str(ROOT / "examples" / "buggy_seed_loop.py")
    text = check(capsys, target)[1]
    assert check(capsys, "--output-format", "concise", target)[1] == text
    full = check(capsys, "--output-format", "full", target)[1]
    assert full == check(capsys, "--show-source", target)[1] and "^" in full and full != text


# --extend-exclude

def test_extend_exclude_adds_to_the_configs_exclude(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, 'exclude = ["a"]\n')
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "t.py").write_text(BUGGY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    files = lambda out: sorted(set(re.findall(r"^(\w)/t\.py:", out, re.M)))  # noqa: E731
    assert files(check(capsys, ".")[1]) == ["b", "c"]
    assert files(check(capsys, "--extend-exclude", "b", ".")[1]) == ["c"]
    assert files(check(capsys, "--exclude", "c", "--extend-exclude", "b", ".")[1]) == ["a"]


# `# flake8: noqa`

@pytest.mark.parametrize("comment, silenced", [
    ("# flake8: noqa", True), ("#flake8:NOQA", True), ("# flake8: noqa: DEV002", False),
])
def test_flake8_file_noqa_is_honoured_as_flake8_honours_it(comment: str, silenced: bool,
                                                           tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    path = project(tmp_path) / "t.py"
    path.write_text(f"{comment}\n{BUGGY}", encoding="utf-8")
    code, out, _ = check(capsys, str(path))
    assert (code, "DEV002" in out) == ((0, False) if silenced else (1, True))


# --statistics

def test_statistics_name_the_rules(capsys: pytest.CaptureFixture) -> None:
    _, out, _ = check(capsys, "-q", "--statistics", str(ROOT / "examples" / "buggy_seed_loop.py"))
    stats = re.findall(r"^(\d+)\s+(DEV\d{3}) (\S+) ", out, re.M)
    assert ("1", "DEV001", "hard-coded-cuda") in stats and len(stats) >= 2


# JSON: end positions and fix edits

def apply_edits(text: str, edits: list[dict]) -> str:
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    offset = lambda p: starts[p["line"] - 1] + p["column"] - 1  # noqa: E731
    for edit in sorted(edits, key=lambda e: offset(e["start"]), reverse=True):
        text = text[:offset(edit["start"])] + edit["content"] + text[offset(edit["end"]):]
    return text


def test_json_fix_edits_are_what_fix_writes_and_findings_have_an_end(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = project(tmp_path) / "t.py"
    source = "import torch\nd = torch.device('cuda')\nx = torch.zeros(2).cuda()\n"
    path.write_text(source, encoding="utf-8")
    findings = json.loads(check(capsys, "--format", "json", str(path))[1])["findings"]
    first = findings[0]
    assert (first["line"], first["column"], first["end_line"], first["end_column"]) == (2, 18, 2, 24)
    assert source.splitlines()[1][first["column"] - 1:first["end_column"] - 1] == "'cuda'"
    # one root cause (the file never chooses a device with a fallback), one finding, whose
    # fix moves both literals to one `device`
    assert len(findings) == 1 and all("edits" in f["fix"] for f in findings)
    edits = [e for f in findings for e in f["fix"]["edits"]]
    check(capsys, "--fix", str(path))
    assert apply_edits(source, edits) == path.read_text(encoding="utf-8")


# GitLab Code Quality

def test_gitlab_code_quality_report(tmp_path: Path, capsys: pytest.CaptureFixture,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES.parent)
    code, out, _ = check(capsys, "--output-format", "gitlab", "fixtures/DEV001", "fixtures/notebooks")
    issues = json.loads(out)
    assert code == 1 and len(issues) > 10
    for issue in issues:
        assert issue["type"] == "issue" and issue["check_name"].startswith("DEV")
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert issue["description"].startswith(issue["check_name"] + " ")
        assert not Path(issue["location"]["path"]).is_absolute()
        assert (FIXTURES.parent / issue["location"]["path"]).is_file()
        assert issue["location"]["lines"]["begin"] >= 1
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    assert any(i["location"]["path"].endswith(".ipynb") and "(cell " in i["description"]
               for i in issues)
    assert check(capsys, "--output-format", "gitlab", str(tmp_path))[1] == "[]\n"
