"""--fix never writes where it should not: read-only files, symlinks leading out of the checked
paths, failed writes. Each is one error line, the file is untouched, the findings still show."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BUGGY = "import torch\nmodel = torch.nn.Linear(4, 1)\nmodel.cuda()\n"  # DEV001 (and DEV005)


def fix(*paths: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "devlint", "check", "--fix", *paths], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_a_read_only_file_is_reported_not_fixed(tmp_path: Path) -> None:
    target = tmp_path / "train.py"
    target.write_text(BUGGY)
    target.chmod(0o444)
    result = fix("train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "devlint: error: train.py: not fixed: the file is read-only"
    assert "train.py:3:7: DEV001" in result.stdout and "Traceback" not in result.stderr
    assert target.read_text() == BUGGY


def test_a_symlink_inside_the_checked_tree_is_fixed_at_its_target(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "real.py").write_text(BUGGY)
    (tree / "link.py").symlink_to(tree / "real.py")
    result = fix("tree/link.py", "tree/real.py", cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    assert (tree / "link.py").is_symlink()  # still a link, not replaced by a copy
    assert (tree / "real.py").read_text() != BUGGY


def test_a_symlink_out_of_the_checked_tree_is_not_followed(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    (outside / "shared.py").write_text(BUGGY)
    (tree / "link.py").symlink_to(outside / "shared.py")
    result = fix("tree", cwd=tmp_path)
    assert result.returncode == 2
    assert "tree/link.py: not fixed: a symlink to " in result.stderr
    assert "outside the checked paths" in result.stderr
    assert (outside / "shared.py").read_text() == BUGGY
    assert (tree / "link.py").is_symlink()
