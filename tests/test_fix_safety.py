"""--fix never writes where it should not: read-only files, symlinks leading out of the checked
paths, failed writes. Each is one error line, the file is untouched, the findings still show."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from file_modes import IS_ROOT, devlint_bound_by_modes

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


def test_an_edit_saved_during_the_fix_is_kept(tmp_path: Path, monkeypatch, capsys) -> None:
    """The user saves while devlint analyses: the replace must not overwrite the new bytes."""
    import devlint.lint.analyze as analyze
    from devlint.cli import main

    target = tmp_path / "train.py"
    target.write_text(BUGGY)
    real = analyze.analyze_source

    def analyse_while_the_user_saves(text, *args, **kwargs):
        if not target.read_text().endswith("# saved\n"):
            with target.open("a") as handle:
                handle.write("# saved\n")
        return real(text, *args, **kwargs)

    monkeypatch.setattr(analyze, "analyze_source", analyse_while_the_user_saves)
    assert main(["check", "--no-cache", "--fix", str(target)]) == 2
    assert target.read_text() == BUGGY + "# saved\n"
    err = capsys.readouterr().err
    assert err.strip() == f"devlint: error: {target}: not fixed: it changed while devlint was fixing it; your edit is kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]  # no temp file left


NOBODY = 65534

posix_modes = pytest.mark.skipif(not hasattr(os, "geteuid"), reason="no POSIX file modes")


@posix_modes
@pytest.mark.parametrize("directory_mode, file_mode, owner, reason", [
    # Writable by its group only: not by its owner, whom devlint runs as. The rename would
    # succeed in the world-writable directory.
    (0o777, 0o464, None, "you do not have permission to write it"),
    (0o555, 0o666, None, "you do not have permission to create files in {dir}"),
    # Writable by all, owned by another user: only root could give the new file that owner.
    pytest.param(0o777, 0o666, NOBODY,
                 "it belongs to user 65534, group 65534; rewriting it would change its owner",
                 marks=pytest.mark.skipif(not IS_ROOT, reason="only root can give a file away")),
], ids=["file not writable", "directory not writable", "owner cannot be kept"])
def test_a_file_that_cannot_be_rewritten_as_it_was_is_left_alone(
        tmp_path: Path, directory_mode: int, file_mode: int, owner, reason: str) -> None:
    directory = tmp_path / "project"
    directory.mkdir()
    target = directory / "train.py"
    target.write_text(BUGGY)
    target.chmod(file_mode)
    if owner is not None:
        os.chown(target, owner, owner)
    before = target.stat()
    directory.chmod(directory_mode)
    try:
        result = devlint_bound_by_modes("check", "--no-cache", "--fix", "train.py",
                                        cwd=directory)
    finally:
        directory.chmod(0o755)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == (
        f"devlint: error: train.py: not fixed: {reason.format(dir=directory)}")
    assert target.read_text() == BUGGY and target.stat().st_uid == before.st_uid
    assert sorted(p.name for p in directory.iterdir()) == ["train.py"]  # no temp file left


@posix_modes
def test_the_owner_and_mode_are_kept(tmp_path: Path) -> None:
    """As root, of a file that belongs to another user; as anyone else, of one's own file."""
    target = tmp_path / "train.py"
    target.write_text(BUGGY)
    if IS_ROOT:
        os.chown(target, NOBODY, NOBODY)
    target.chmod(0o640)
    owner = target.stat()
    result = fix("train.py", cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    stat = target.stat()
    assert target.read_text() != BUGGY
    assert (stat.st_uid, stat.st_gid, stat.st_mode & 0o777) == (owner.st_uid, owner.st_gid, 0o640)
