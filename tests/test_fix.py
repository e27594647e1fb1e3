"""Autofix: fixes remove their findings, never touch clean code, and are safe to run twice."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, fixture_files
from devlint.lint.analyze import analyze_source
from devlint.lint.fix import apply_fixes, write_atomically
from devlint.core.findings import Applicability, Finding, Fix, TextEdit

RUNNABLE = "# runnable: prints its losses on CPU"


def devlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "devlint", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def fixed_copy(tmp_path_factory) -> Path:
    """fixtures/ copied and fixed once with every fix, as `devlint check --fix` would."""
    root = tmp_path_factory.mktemp("fixed") / "fixtures"
    shutil.copytree(FIXTURES, root)
    result = devlint("check", "--fix", "--unsafe-fixes", ".", cwd=root)
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return root


def test_no_fixable_finding_survives_fix(fixed_copy: Path) -> None:
    for path in sorted(fixed_copy.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        leftovers = [f for f in analyze_source(text, str(path)) if f.fix is not None]
        assert not leftovers, f"{path}: {[(f.line, f.code) for f in leftovers]}"


def test_fixes_fix_most_bad_fixtures(fixed_copy: Path) -> None:
    bad = [p for p in fixture_files() if p.name.startswith("bad_")]
    cleaned = [p for p in bad if not analyze_source(
        (fixed_copy / p.relative_to(FIXTURES)).read_text(encoding="utf-8"), p.name)]
    assert len(cleaned) >= len(bad) * 0.6, f"only {len(cleaned)} of {len(bad)} bad fixtures fixed"


def test_good_fixtures_are_byte_identical(fixed_copy: Path) -> None:
    for path in fixture_files():
        if path.name.startswith("good_"):
            assert (fixed_copy / path.relative_to(FIXTURES)).read_bytes() == path.read_bytes()


def test_a_fix_that_uncovers_a_finding_in_another_file_fixes_that_too(tmp_path: Path) -> None:
    """The loss module's `.cuda()` is reached only past the script's own (no finding there);
    fixing the script uncovers it. One `--fix` run fixes both files, and a check after it finds
    nothing: the files a rewritten one imports are checked again."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "projects" / "helper_module_reached_only_past_the_scripts_crash", root)
    before = {p.name: p.read_text(encoding="utf-8") for p in root.glob("*.py")}
    result = devlint("check", "--fix", "--no-cache", ".", cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    after = {p.name: p.read_text(encoding="utf-8") for p in root.glob("*.py")}
    assert all(after[name] != before[name] for name in ("losses.py", "train.py"))
    assert "[0.3]).cuda()" not in after["losses.py"]
    again = devlint("check", "--no-cache", ".", cwd=root)
    assert again.returncode == 0 and "No findings" in again.stdout, again.stdout


def test_second_fix_changes_nothing(fixed_copy: Path) -> None:
    before = {p: p.read_bytes() for p in fixed_copy.rglob("*.py")}
    result = devlint("check", "--fix", "--unsafe-fixes", ".", cwd=fixed_copy)
    assert "Fixed" not in result.stdout
    assert {p: p.read_bytes() for p in fixed_copy.rglob("*.py")} == before


BUGGY = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "device = torch.device('cuda')  # chosen once\n"
    "model = nn.Linear(4, 1).to(device)\n"
    "criterion = nn.MSELoss()\n"
    "for x, y in train_loader:\n"
    "    out = model(x)\n"
    "    loss = criterion(out, y)\n"
)


def test_fix_output_and_exit_codes(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(BUGGY)
    result = devlint("check", "--fix", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Fixed 3 findings (0 remaining)." in result.stdout
    text = path.read_text()
    assert "torch.device('cuda' if torch.cuda.is_available() else 'cpu')  # chosen once" in text
    assert "    x, y = x.to(device), y.to(device)\n    out = model(x)" in text


def test_diff_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(BUGGY)
    result = devlint("check", "--diff", "train.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "+    x, y = x.to(device), y.to(device)" in result.stdout
    assert "Would fix 3 findings (0 remaining)." in result.stdout
    assert path.read_text() == BUGGY


def test_select_fixes_one_rule_only(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(BUGGY)
    result = devlint("check", "--fix", "--select", "DEV001", "train.py", cwd=tmp_path)
    assert result.returncode == 0
    text = path.read_text()
    assert "is_available()" in text and "x.to(device)" not in text


def test_noqa_finding_is_never_fixed(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(BUGGY.replace("# chosen once", "# noqa: DEV001"))
    devlint("check", "--fix", "train.py", cwd=tmp_path)
    text = path.read_text()
    assert "device = torch.device('cuda')  # noqa: DEV001" in text


def test_unsafe_fix_needs_the_flag(tmp_path: Path) -> None:
    source = (FIXTURES / "DEV003" / "bad_sample_batch_script.py").read_text()
    path = tmp_path / "s.py"
    path.write_text(source)
    safe = devlint("check", "--fix", "s.py", cwd=tmp_path)
    assert safe.returncode == 1 and "DEV003" in safe.stdout
    unsafe = devlint("check", "--fix", "--unsafe-fixes", "s.py", cwd=tmp_path)
    assert unsafe.returncode == 0, unsafe.stdout


def test_crlf_encoding_and_bom_are_kept(tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.py"
    crlf.write_bytes(BUGGY.replace("\n", "\r\n").encode())
    latin = tmp_path / "latin.py"
    latin.write_bytes(("# -*- coding: latin-1 -*-\n# caf\xe9\n" + BUGGY).encode("latin-1"))
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + BUGGY.encode())
    result = devlint("check", "--fix", "crlf.py", "latin.py", "bom.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    data = crlf.read_bytes()
    assert b"x.to(device)" in data and data.count(b"\r\n") == data.count(b"\n")
    assert latin.read_bytes().startswith(b"# -*- coding: latin-1 -*-\n# caf\xe9\n")
    assert bom.read_bytes().startswith(b"\xef\xbb\xbfimport torch")


def test_file_mode_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(BUGGY)
    path.chmod(0o751)
    devlint("check", "--fix", "train.py", cwd=tmp_path)
    assert (path.stat().st_mode & 0o777) == 0o751 and "x.to(device)" in path.read_text()


def test_interrupted_write_leaves_the_original(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "train.py"
    path.write_text(BUGGY)

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        write_atomically(path, b"half")
    assert path.read_text() == BUGGY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


def test_fix_that_would_not_parse_is_dropped() -> None:
    text = "x = 1\n"
    broken = Fix("break it", Applicability.SAFE, (TextEdit(0, 1, "def ("),))
    finding = Finding("t.py", 1, 1, "DEV001", "m", fix=broken)
    outcome = apply_fixes(text, [finding])
    assert outcome.text == text and not outcome.applied
    assert "would not parse" in outcome.error


def _runnable_bad_fixtures() -> list[Path]:
    return [p for p in fixture_files()
            if p.name.startswith("bad_") and RUNNABLE in p.read_text(encoding="utf-8")]


def test_enough_runnable_fixtures() -> None:
    assert len(_runnable_bad_fixtures()) >= 8


SEEDED_RUNNER = """
import contextlib, io, json, os, random, runpy, sys
import torch
outputs = {}
for script in sys.argv[1:]:
    random.seed(0)
    torch.manual_seed(0)
    buffer = io.StringIO()
    os.chdir(os.path.dirname(script))
    sys.argv = [script]
    with contextlib.redirect_stdout(buffer):
        runpy.run_path(script, run_name="__main__")
    outputs[script] = buffer.getvalue()
print(json.dumps(outputs))
"""


def test_fix_keeps_the_mathematics_on_cpu(fixed_copy: Path) -> None:
    """On the CPU the fix only says where the numbers live: same seed, same printed losses.

    All scripts run in one seeded interpreter (torch is imported once)."""
    pytest.importorskip("torch")
    originals = _runnable_bad_fixtures()
    fixed = [fixed_copy / p.relative_to(FIXTURES) for p in originals]
    for before, after in zip(originals, fixed):
        assert after.read_bytes() != before.read_bytes(), f"{before.name}: nothing was fixed"
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run(
        [sys.executable, "-c", SEEDED_RUNNER, *map(str, originals + fixed)],
        capture_output=True, text=True, timeout=900, env=env,
    )
    assert done.returncode == 0, done.stderr
    outputs = json.loads(done.stdout.splitlines()[-1])
    for before, after in zip(originals, fixed):
        assert outputs[str(before)], f"{before.name} printed nothing"
        assert outputs[str(after)] == outputs[str(before)], before.name


TAB_INDENTED = (
    "import torch\n"
    "device = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n"
    "model = torch.nn.Linear(4, 1).to(device)\n"
    "w = torch.zeros(3)\n"
    "w.to(device)\n"
    "for batch in loader:\n"
    "\tx, y = batch\n"
    "\tout = model(x)\n"
)


def test_a_tab_indented_file_gets_its_fixes(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(TAB_INDENTED)
    result = devlint("check", "--no-cache", "--fix", "t.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Fixed 2 findings (0 remaining)." in result.stdout
    assert "\tx, y = batch\n\tx = x.to(device)\n\tout = model(x)\n" in path.read_text()


def test_one_fix_run_reaches_the_point_where_nothing_is_left(tmp_path: Path) -> None:
    """DEV005 and DEV001 overlap on `x.to('cuda')`: the first rewrites the line, the second
    then fixes the literal on it, in the same run, so a second run has nothing to do."""
    path = tmp_path / "t.py"
    path.write_text("import torch\nx = torch.zeros(3)\nx.to('cuda')\nprint(x)\n")
    first = devlint("check", "--no-cache", "--fix", "t.py", cwd=tmp_path)
    assert first.returncode == 0 and "Fixed 2 findings (0 remaining)." in first.stdout, first.stdout
    assert "x = x.to(device)\n" in path.read_text()
    fixed = path.read_bytes()
    second = devlint("check", "--no-cache", "--fix", "t.py", cwd=tmp_path)
    assert second.returncode == 0 and "Fixed" not in second.stdout
    assert path.read_bytes() == fixed


def test_a_repeated_assignment_is_fixed_where_it_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "dup.py"
    path.write_text(
        "import torch.nn as nn\n\n\nclass MLP(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.hidden = [nn.Linear(4, 4)]\n"
        "        self.hidden = [nn.Linear(4, 8)]\n\n"
        "    def forward(self, x):\n        for layer in self.hidden:\n            x = layer(x)\n"
        "        return x\n")
    diff = devlint("check", "--no-cache", "--diff", "--unsafe-fixes", "dup.py", cwd=tmp_path)
    assert "dup.py:8:23: DEV009" in devlint("check", "--no-cache", "dup.py", cwd=tmp_path).stdout
    assert "+        self.hidden = nn.ModuleList([nn.Linear(4, 8)])" in diff.stdout
    assert "Would fix 1 finding (0 remaining)." in diff.stdout
    fixed = devlint("check", "--no-cache", "--fix", "--unsafe-fixes", "dup.py", cwd=tmp_path)
    assert fixed.returncode == 0 and "Fixed 1 finding (0 remaining)." in fixed.stdout
    text = path.read_text()  # the overwritten list, dead code, is left alone
    assert "self.hidden = [nn.Linear(4, 4)]\n        self.hidden = nn.ModuleList([" in text


def test_a_fix_that_breaks_the_file_drops_only_itself() -> None:
    text = "import torch\nx = torch.zeros(3)\nx.to('cuda')\n"
    good = next(f for f in analyze_source(text, "t.py") if f.code == "DEV005")
    broken = Finding("t.py", 1, 1, "DEV001", "m",
                     fix=Fix("break it", Applicability.SAFE, (TextEdit(0, 0, "def (\n"),)))
    outcome = apply_fixes(text, [broken, good])
    assert outcome.applied == [good] and "x = x.to('cuda')" in outcome.text
    assert outcome.error == "the DEV001 fix at line 1 was dropped: with it the file would not parse"
