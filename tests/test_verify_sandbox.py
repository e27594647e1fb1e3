"""The sandbox a verify run works in (issue 21, isolation): writes through the view never reach
the user's tree, reads still find the user's files, and each run sees only its own writes.
Exercised in-process on a temporary tree (no torch); end to end in test_verify_cases and
below with --keep-outputs."""
from __future__ import annotations

import json
import os
import pathlib
import shutil

import pytest

from devlint.verify.sandbox import View, install_guard


def snapshot(root: pathlib.Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else None
            for p in sorted(root.rglob("*"))}


@pytest.fixture
def user_tree(tmp_path):
    user = tmp_path / "project"
    (user / "runs" / "exp0").mkdir(parents=True)
    (user / "runs" / "events.log").write_text("important\n")
    (user / "data").mkdir()
    (user / "data" / "train.csv").write_text("1,2\n")
    (user / "history.txt").write_text("line0\n")
    (user / "model.pt").write_text("weeks of training\n")
    return user


@pytest.fixture
def inside_view(tmp_path, user_tree, monkeypatch):
    """Run the test body as a verify child would: in the view of the user's directory, with
    the guard installed (and removed afterwards: this is the pytest process)."""
    view = View(str(tmp_path / "run" / "view"))
    (tmp_path / "run").mkdir()
    here = view.enter(str(user_tree))
    monkeypatch.chdir(here)
    undo = install_guard(view)
    yield view
    undo()


def test_every_write_stays_in_the_view_and_reads_find_the_users_files(user_tree, inside_view):
    before = snapshot(user_tree)
    assert pathlib.Path("data/train.csv").read_text() == "1,2\n"  # relative reads work
    assert open("../project/history.txt").read() == "line0\n"  # so does `..`
    with open("history.txt", "a") as f:  # append: a private copy first
        f.write("run started\n")
    pathlib.Path("model.pt").write_text("50 steps")  # overwrite
    shutil.rmtree("runs")  # "start fresh"
    os.makedirs("runs/exp1")  # no exist_ok: the user's runs/ is gone from this view
    pathlib.Path("runs/exp1/log.json").write_text(json.dumps([1.0]))
    os.rename("data/train.csv", "data/moved.csv")
    os.remove("data/moved.csv")
    fd = os.open("new.bin", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.write(fd, b"x")
    os.close(fd)
    os.chmod("history.txt", 0o600)
    assert snapshot(user_tree) == before
    assert open("history.txt").read() == "line0\nrun started\n"
    assert not os.path.exists("runs/exp0") and not os.path.exists("data/train.csv")


def test_exclusive_create_of_an_existing_file_fails_as_it_would(inside_view):
    with pytest.raises(FileExistsError):
        open("history.txt", "x")
    with pytest.raises(FileExistsError):
        os.mkdir("runs")


def test_two_views_never_see_each_others_writes(tmp_path, user_tree, monkeypatch):
    seen = []
    for name in ("cpu", "cuda-sim"):
        view = View(str(tmp_path / name))
        monkeypatch.chdir(view.enter(str(user_tree)))
        undo = install_guard(view)
        try:
            seen.append(os.path.exists("checkpoint.pt"))
            open("checkpoint.pt", "w").write(name)
        finally:
            undo()
    assert seen == [False, False]
    assert not (user_tree / "checkpoint.pt").exists()


def test_what_a_run_wrote_is_listed_with_the_users_paths(user_tree, inside_view):
    open("history.txt", "a").write("more\n")
    os.makedirs("out/empty")
    os.listdir("data")  # reading materializes nothing
    written = {original for _, original in inside_view.written()}
    assert written == {str(user_tree / "history.txt"), str(user_tree / "out" / "empty")}


def test_absolute_paths_are_not_sandboxed(tmp_path, user_tree, inside_view):
    """As the README says: only paths through the view are guarded."""
    (user_tree / "absolute.txt").write_text("written by the script")
    assert (user_tree / "absolute.txt").exists()
