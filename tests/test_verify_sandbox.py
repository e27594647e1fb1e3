"""Issue 30: a verify run never writes the user's files. Each device run gets a mount namespace
in which the user's tree and $HOME are overlays (the kernel sends every write to the run's own
layer); where that cannot be had, real copies, and the report says which.

The first tests are the seven reproductions of issue 30 (turn3/verify_*), end to end; then a
hostile script that attacks a tree and $HOME by every route, under cpu and cuda-sim and under
--nproc 2, with every file's bytes, mode, mtime and extended attributes compared afterwards;
then the fallback, forced; then the copies in-process."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("torch")

from conftest import TRAINING_SNIPPET  # noqa: E402
from devlint.cli import main  # noqa: E402
from devlint.verify.sandbox import (  # noqa: E402
    COPY, COPY_LIMIT_ENV, ISOLATION_ENV, OVERLAY, IsolationError, copies, expand_root,
    file_system_of, isolate, outermost,
)

HAS_XATTR = hasattr(os, "setxattr")


def verify(capsys, *argv) -> tuple[int, dict]:
    code = main(["verify", "--json", "-q", *argv])
    return code, json.loads(capsys.readouterr().out)


def verify_text(capsys, *argv) -> tuple[int, str]:
    code = main(["verify", "-q", *argv])
    return code, capsys.readouterr().out


def snapshot(*roots: Path) -> dict:
    """Every entry under the roots: kind, mode, bytes (or link target), mtime, xattrs."""
    out = {}
    for root in roots:
        for directory, dirs, files in os.walk(root):
            for name in [*dirs, *files, ""]:
                path = os.path.join(directory, name) if name else directory
                info = os.lstat(path)
                entry = [stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode)]
                if stat.S_ISLNK(info.st_mode):
                    entry.append(os.readlink(path))
                elif stat.S_ISREG(info.st_mode):
                    entry += [Path(path).read_bytes(), info.st_mtime_ns]
                if HAS_XATTR and not stat.S_ISLNK(info.st_mode):
                    entry.append(sorted((key, os.getxattr(path, key))
                                        for key in os.listxattr(path)))
                out[path] = entry
    return out


def attack_on_cpu(capsys, tree: Path, script: str, *roots: Path) -> dict:
    """Run `script` as the tree's train.py on cpu; it must succeed (so every attack in it
    happened) and leave the tree (and `roots`) as they were. Returns its device's report."""
    (tree / "train.py").write_text(textwrap.dedent(script))
    before = snapshot(tree, *roots)
    code, report = verify(capsys, "--devices", "cpu", "train.py")
    assert code == 0, report["devices"][0]["error"]
    assert snapshot(tree, *roots) == before
    return report["devices"][0]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home directory of the test's own: a run must not write it either."""
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    (home / ".config" / "settings.ini").write_text("[user]\nname = me\n")
    (home / ".netrc").write_text("machine example.com\n")
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def tree(tmp_path, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return project


# -- issue 30's reproductions -------------------------------------------------------------------
pytestmark = pytest.mark.usefixtures("warm_verify")


def test_apis_the_old_guard_did_not_patch_cannot_write_the_users_files(tree, home, capsys):
    """turn3/verify_sandbox_bypass_apis."""
    for name in ("fileio", "dirfd", "tar", "bz2", "fchmod", "chmodfd", "xattr", "jit"):
        (tree / f"v_{name}").write_text("ORIG\n")
        (tree / f"v_{name}").chmod(0o644)
    attack_on_cpu(capsys, tree, """\
        import io, os, tarfile, bz2
        io.FileIO("v_fileio", "w").write(b"PWNED")
        d = os.open(".", os.O_RDONLY)
        fd = os.open("v_dirfd", os.O_WRONLY | os.O_TRUNC, dir_fd=d)
        os.write(fd, b"PWNED"); os.close(fd)
        tarfile.open("v_tar", "w").close()
        with bz2.open("v_bz2", "wb") as f: f.write(b"x")
        fd = os.open("v_fchmod", os.O_RDONLY); os.fchmod(fd, 0o777); os.close(fd)
        fd = os.open("v_chmodfd", os.O_RDONLY); os.chmod(fd, 0o600); os.close(fd)
        if hasattr(os, "setxattr"):
            os.setxattr("v_xattr", b"user.devlint", b"PWNED")
            assert os.getxattr("v_xattr", b"user.devlint") == b"PWNED"
        import torch
        torch.jit.save(torch.jit.script(torch.nn.Linear(2, 2)), "v_jit")
        assert open("v_fileio").read() == "PWNED" and os.stat("v_fchmod").st_mode & 0o777 == 0o777
    """)


def test_chdir_into_a_folder_keeps_every_later_write_in_the_run(tree, home, capsys):
    """turn3/verify_sandbox_chdir_escape; os.getcwd() is the user's path, as python gives."""
    (tree / "outputs").mkdir()
    (tree / "outputs" / "metrics.txt").write_text("ORIG")
    run = attack_on_cpu(capsys, tree, """\
        import os
        os.chdir("outputs")
        print("cwd is", os.getcwd(), "file is", __file__)
        with open("metrics.txt", "w") as f: f.write("PWNED")
        os.makedirs("ckpt", exist_ok=True)
        with open("ckpt/last.txt", "w") as f: f.write("NEW")
    """)
    assert f"cwd is {tree / 'outputs'} file is {tree / 'train.py'}" in run["stdout_tail"]


def test_resolved_and_real_paths_lead_nowhere_but_the_run(tree, home, capsys):
    """turn3/verify_sandbox_resolve_escape."""
    (tree / "runs").mkdir()
    (tree / "runs" / "best.pt").write_text("ORIG")
    (tree / "log.txt").write_text("ORIG")
    run = attack_on_cpu(capsys, tree, """\
        import os
        from pathlib import Path
        out = Path("runs").resolve()
        print("out dir", out)
        (out / "best.pt").write_text("PWNED")
        with open(os.path.realpath("log.txt"), "w") as f: f.write("PWNED")
        assert open("log.txt").read() == "PWNED"
    """)
    assert f"out dir {tree / 'runs'}" in run["stdout_tail"]


def test_dotdot_through_a_folder_cannot_reach_the_users_file(tree, home, capsys):
    """turn3/verify_sandbox_dotdot_through_link."""
    (tree / "data").mkdir()
    (tree / "data" / "train.csv").write_text("x\n")
    (tree / "results.txt").write_text("ORIG")
    attack_on_cpu(capsys, tree, """\
        import os
        with open(os.path.join("data", "..", "results.txt"), "w") as f:
            f.write("PWNED")
    """)


def test_a_symlink_made_at_run_time_writes_into_the_run(tree, home, capsys):
    """turn3/verify_sandbox_runtime_symlink."""
    (tree / "latest.pt").write_text("ORIG")
    attack_on_cpu(capsys, tree, """\
        import os
        os.symlink("latest.pt", "alias.pt")
        with open("alias.pt", "w") as f: f.write("PWNED")
        assert open("latest.pt").read() == "PWNED"
    """)


@pytest.mark.slow
def test_spawned_workers_are_isolated_too(tree, home, capsys):
    """turn3/verify_spawn_unsandboxed: mp.spawn and DataLoader workers under `spawn` are fresh
    interpreters; they inherit the run's namespace."""
    (tree / "data").mkdir()
    (tree / "ckpt.pt").write_text("ORIGCKPT")
    (tree / "data" / "cache.txt").write_text("ORIG")
    attack_on_cpu(capsys, tree, """\
        import torch, torch.nn as nn
        import torch.multiprocessing as mp
        from torch.utils.data import DataLoader, Dataset

        class DS(Dataset):
            def __len__(self): return 8
            def __getitem__(self, i):
                with open("data/cache.txt", "w") as f: f.write("WORKER WROTE")
                return torch.randn(2), torch.randn(1)

        def worker(rank):
            torch.save(nn.Linear(2, 1).state_dict(), "ckpt.pt")

        if __name__ == "__main__":
            mp.spawn(worker, nprocs=1)
            model = nn.Linear(2, 1); opt = torch.optim.SGD(model.parameters(), lr=0.1)
            loader = DataLoader(DS(), batch_size=4, num_workers=1, multiprocessing_context="spawn")
            for x, y in loader:
                loss = ((model(x) - y) ** 2).mean(); opt.zero_grad(); loss.backward(); opt.step()
            assert open("data/cache.txt").read() == "WORKER WROTE"
            assert open("ckpt.pt", "rb").read() != b"ORIGCKPT"
    """)


def test_atexit_handlers_run_as_python_runs_them(tree, home, capsys):
    """turn3/verify_atexit_skipped: also when the script raises, never after os._exit."""
    (tree / "train.py").write_text(textwrap.dedent("""\
        import atexit, sys
        import torch
        atexit.register(lambda: print("ATEXIT-HANDLER-RAN", flush=True))
        print("BODY-RAN", torch.zeros(1).sum().item(), flush=True)
        if sys.argv[1:] == ["raise"]:
            raise ValueError("late")
        if sys.argv[1:] == ["os_exit"]:
            import os
            os._exit(0)
    """))
    for how, ran in (("return", True), ("raise", True), ("os_exit", False)):
        _, report = verify(capsys, "--devices", "cpu", "train.py", "--", how)
        out = report["devices"][0]["stdout_tail"]
        assert "BODY-RAN" in out and ("ATEXIT-HANDLER-RAN" in out) is ran, (how, out)


# -- a hostile script ---------------------------------------------------------------------------
HOSTILE = TRAINING_SNIPPET + """\
import bz2, io, os, shutil, sqlite3, subprocess, sys, tarfile
from pathlib import Path
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, Dataset

TAG = "r" + os.environ.get("RANK", "0")  # under torchrun each rank attacks its own files
TREE = os.environ["TREE"]  # an absolute path into the tree, as a config file gives one


class Writes(Dataset):
    def __init__(self, context): self.context = context
    def __len__(self): return 4
    def __getitem__(self, i):
        with open(f"data/{self.context}_{TAG}.txt", "w") as f:
            f.write("WORKER")
        return torch.zeros(1)


def spawned(index):
    torch.save({"w": 1}, f"ckpt_{TAG}.pt")


def attack():
    def written(path, text):
        assert open(path).read() == text, (path, open(path).read())

    with open(f"trunc_{TAG}", "w") as f: f.write("PWNED")
    with open(f"append_{TAG}", "a") as f: f.write("PWNED")
    io.FileIO(f"fileio_{TAG}", "w").write(b"PWNED")
    d = os.open(".", os.O_RDONLY)
    fd = os.open(f"dirfd_{TAG}", os.O_WRONLY | os.O_TRUNC, dir_fd=d)
    os.write(fd, b"PWNED"); os.close(fd); os.close(d)
    tarfile.open(f"tar_{TAG}", "w").close()
    with bz2.open(f"bz2_{TAG}", "wb") as f: f.write(b"x")
    fd = os.open(f"mode_{TAG}", os.O_RDONLY)
    os.fchmod(fd, 0o777); os.chmod(fd, 0o700); os.close(fd)
    os.chmod(f"chmod_{TAG}", 0o600)
    os.utime(f"utime_{TAG}", (0, 0))
    os.truncate(f"truncate_{TAG}", 0)
    if hasattr(os, "setxattr"):
        os.setxattr(f"xattr_{TAG}", "user.devlint", b"PWNED")
        os.removexattr(f"xattr_{TAG}", "user.tag")
    torch.jit.save(torch.jit.script(torch.nn.Linear(2, 2)), f"jit_{TAG}")
    torch.save(model.state_dict(), f"model_{TAG}.pt")
    os.remove(f"delete_{TAG}")
    os.rename(f"rename_{TAG}", f"renamed_{TAG}")
    os.rename(f"dir_{TAG}", f"dir_moved_{TAG}")
    shutil.rmtree(f"tree_{TAG}")
    os.link(f"hard_{TAG}", f"hardlink_{TAG}")
    with open(f"hardlink_{TAG}", "w") as f: f.write("PWNED")
    os.symlink(f"target_{TAG}", f"alias_{TAG}")
    with open(f"alias_{TAG}", "w") as f: f.write("PWNED")
    with open(os.path.join("data", "..", f"dotdot_{TAG}"), "w") as f: f.write("PWNED")
    (Path("runs").resolve() / f"best_{TAG}.pt").write_text("PWNED")
    with open(os.path.realpath(f"real_{TAG}"), "w") as f: f.write("PWNED")
    subprocess.run(["sh", "-c", f"echo x >> shell_{TAG}; rm -f shell_rm_{TAG}"], check=True)
    db = sqlite3.connect(f"db_{TAG}.sqlite")
    db.execute("INSERT INTO t VALUES ('PWNED')"); db.commit(); db.close()
    with open(os.path.join(TREE, f"abs_{TAG}"), "w") as f: f.write("PWNED")
    home = os.path.expanduser("~")
    with open(os.path.join(home, ".netrc"), "a") as f: f.write("PWNED")
    os.remove(os.path.join(home, ".config", f"settings_{TAG}.ini"))
    os.makedirs(os.path.join(home, ".cache", "hub"), exist_ok=True)
    os.chdir("outputs")
    with open(f"metrics_{TAG}", "w") as f: f.write("PWNED")
    os.chdir("..")
    for context in ("fork", "spawn"):
        for _ in DataLoader(Writes(context), batch_size=2, num_workers=1,
                            multiprocessing_context=context):
            pass
    mp.spawn(spawned, nprocs=1)
    # the run saw its own writes: each attack happened
    for name in ("trunc", "fileio", "dirfd", "hardlink", f"target", "dotdot", "real", "abs"):
        written(f"{name}_{TAG}", "PWNED")
    written(f"outputs/metrics_{TAG}", "PWNED")
    written(f"data/fork_{TAG}.txt", "WORKER")
    written(f"data/spawn_{TAG}.txt", "WORKER")
    assert os.stat(f"mode_{TAG}").st_mode & 0o777 == 0o700
    assert not os.path.exists(f"delete_{TAG}") and os.path.exists(f"dir_moved_{TAG}/inner")
    assert open(f"shell_{TAG}").read() == "ORIG\\nx\\n" and not os.path.exists(f"shell_rm_{TAG}")
    assert os.path.getsize(f"truncate_{TAG}") == 0 and os.path.getsize(f"ckpt_{TAG}.pt") > 8
    assert not os.path.exists(os.path.join(home, ".config", f"settings_{TAG}.ini"))
    # outside the user's folders, where writes land (as the report says)
    with open(os.path.join(os.environ["MARKS"], f"{device}_{TAG}"), "w") as f:
        f.write("EVERY-ATTACK-LANDED")


if __name__ == "__main__":
    attack()
"""
FILES = ("trunc", "append", "fileio", "dirfd", "tar", "bz2", "mode", "chmod", "utime",
         "truncate", "xattr", "jit", "delete", "rename", "hard", "target", "dotdot", "real",
         "shell", "shell_rm", "abs")


def hostile_tree(tree: Path, home: Path, tags: list[str]) -> None:
    """The user's files the script attacks, for each rank (`tags`): ranks share a run's files,
    as the processes of a job share a node's disk."""
    (tree / "data").mkdir()
    (tree / "runs").mkdir()
    (tree / "outputs").mkdir()
    for tag in tags:
        for name in FILES:
            path = tree / f"{name}_{tag}"
            path.write_text("ORIG\n")
            path.chmod(0o640)
            if HAS_XATTR:
                os.setxattr(path, "user.tag", b"kept")
        (tree / f"dir_{tag}").mkdir()
        (tree / f"dir_{tag}" / "inner").write_text("ORIG\n")
        (tree / f"tree_{tag}" / "sub").mkdir(parents=True)
        (tree / f"tree_{tag}" / "sub" / "f").write_text("ORIG\n")
        (home / ".config" / f"settings_{tag}.ini").write_text("[user]\n")
        (tree / f"ckpt_{tag}.pt").write_text("ORIG\n")
        (tree / f"model_{tag}.pt").write_text("ORIG\n")
        (tree / "runs" / f"best_{tag}.pt").write_text("ORIG\n")
        (tree / "outputs" / f"metrics_{tag}").write_text("ORIG\n")
        db = sqlite3.connect(tree / f"db_{tag}.sqlite")
        db.execute("CREATE TABLE t (v TEXT)")
        db.execute("INSERT INTO t VALUES ('ORIG')")
        db.commit()
        db.close()
    (tree / "train.py").write_text(HOSTILE)


def run_hostile(tree: Path, home: Path, capsys, monkeypatch, *argv) -> dict:
    monkeypatch.setenv("TREE", str(tree))
    marks = tree.parent / "marks"
    marks.mkdir()
    monkeypatch.setenv("MARKS", str(marks))
    before = snapshot(tree, home)
    code, report = verify(capsys, "train.py", "--devices", "cpu,cuda-sim", *argv)
    assert code in (0, 3), [(d["device"], d["status"], d["error"]) for d in report["devices"]]
    for device in report["devices"]:
        assert device["status"] == "completed", device["error"]
        assert device["isolation"]["kind"] == OVERLAY
    tags = {f"r{d['rank'] or 0}" for d in report["devices"]}
    assert sorted(os.listdir(marks)) == sorted(f"{d}_{t}" for d in ("cpu", "cuda") for t in tags)
    after = snapshot(tree, home)
    assert [path for path in {**before, **after} if before.get(path) != after.get(path)] == []
    return report


@pytest.mark.slow
def test_a_hostile_script_leaves_the_tree_and_home_byte_identical(tree, home, capsys,
                                                                  monkeypatch):
    hostile_tree(tree, home, ["r0"])
    run_hostile(tree, home, capsys, monkeypatch)


@pytest.mark.slow
def test_every_rank_of_a_torchrun_run_is_isolated(tree, home, capsys, monkeypatch):
    hostile_tree(tree, home, ["r0", "r1"])
    report = run_hostile(tree, home, capsys, monkeypatch, "--nproc", "2")
    assert sorted((d["device"], d["rank"]) for d in report["devices"]) == [
        ("cpu", 0), ("cpu", 1), ("cuda-sim", 0), ("cuda-sim", 1)]


def test_a_user_namespace_gives_the_same_isolation(tree, home, capsys, monkeypatch):
    """The route verify takes when it does not run as root (forced here, as root)."""
    monkeypatch.setenv(ISOLATION_ENV, "userns")
    (tree / "model.pt").write_text("ORIG")
    run = attack_on_cpu(capsys, tree, """\
        import os, subprocess
        open("model.pt", "w").write("PWNED")
        subprocess.run(["sh", "-c", "echo x >> model.pt; touch new"], check=True)
        os.rename("model.pt", "moved.pt")
        assert open("moved.pt").read() == "PWNED" + "x\\n"
    """, home)
    assert run["isolation"]["kind"] == OVERLAY and run["isolation"]["user_namespace"]


def test_two_runs_never_see_each_others_files_and_kept_layers_hold_what_each_wrote(
        tree, home, capsys, tmp_path):
    (tree / "train.py").write_text(TRAINING_SNIPPET + textwrap.dedent("""\
        import os, sys
        assert not os.path.exists("checkpoint.pt"), "the other run's file"
        os.makedirs("runs/exp1")  # no exist_ok: both runs create it
        torch.save(model.state_dict(), "checkpoint.pt")
        with open(os.path.expanduser("~/.netrc"), "a") as f: f.write(device)
    """))
    keep = tmp_path / "kept"
    code, report = verify(capsys, "train.py", "--keep-outputs", str(keep))
    assert code in (0, 3), [d["error"] for d in report["devices"]]
    for device in ("cpu", "cuda-sim"):
        assert (keep / device / "checkpoint.pt").is_file()
        assert (keep / device / "runs" / "exp1").is_dir()
        netrc = keep / device / "_outside_cwd" / str(home / ".netrc").lstrip(os.sep)
        assert netrc.read_text().endswith("cpu" if device == "cpu" else "cuda")
        assert not (keep / device / "train.py").exists()
    assert sorted(os.listdir(tree)) == ["train.py"]
    assert (home / ".netrc").read_text() == "machine example.com\n"


mounting = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("unshare"),
    reason="mounts file systems (in a mount namespace of the test's own, which goes with it)")


def verify_after_mounting(tree: Path, tmp_path: Path, mounts: str, after: str = "true",
                          env: str = "") -> dict:
    """`devlint verify --devices cpu train.py` in the tree, in a mount namespace of the test's
    own where the shell commands `mounts` ran first and `after` runs last; the run's report."""
    report = tmp_path / "report.json"
    shell = (f"{mounts} && {env} {sys.executable} -m devlint verify --json -q --devices cpu "
             f"train.py > {report}; {after}")
    subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", shell],
                   cwd=tree, timeout=600, check=True)
    run = json.loads(report.read_text())["devices"][0]
    assert run["status"] == "completed", run["error"]
    return run


@pytest.mark.slow
@mounting
def test_file_systems_mounted_inside_the_tree_are_overlaid_or_named(tree, home, tmp_path):
    """A tmpfs inside the tree gets a layer of its own; a /proc inside it is passed through,
    and the report names it."""
    (tree / "fast").mkdir()
    (tree / "kernel").mkdir()
    (tree / "train.py").write_text(textwrap.dedent("""\
        import os
        open("fast/f", "w").write("PWNED")
        os.remove("fast/g")
        assert open("fast/f").read() == "PWNED" and os.path.exists("kernel/self/status")
    """))
    after = tmp_path / "after.txt"
    run = verify_after_mounting(
        tree, tmp_path, "mount -t tmpfs none fast && echo ORIG > fast/f && echo ORIG > fast/g "
                        "&& mount -t proc proc kernel", after=f"cat fast/f fast/g > {after}")
    assert after.read_text() == "ORIG\nORIG\n"
    assert f"({tree / 'kernel'})" in run["isolation"]["not_covered"]


@pytest.mark.slow
@mounting
def test_a_scratch_overlayfs_cannot_write_to_falls_back_to_copies_and_says_why(
        tree, home, tmp_path):
    """A container's /tmp is often its overlayfs root, which cannot hold an upper layer."""
    for name in ("lower", "upper", "work", "scratch"):
        (tmp_path / name).mkdir()
    (tree / "model.pt").write_text("ORIG")
    (tree / "train.py").write_text('open("model.pt", "w").write("PWNED")\n')
    run = verify_after_mounting(
        tree, tmp_path, f"mount -t overlay overlay -o lowerdir={tmp_path}/lower,"
                        f"upperdir={tmp_path}/upper,workdir={tmp_path}/work {tmp_path}/scratch",
        env=f"TMPDIR={tmp_path}/scratch")
    assert run["isolation"]["kind"] == COPY
    assert "the scratch directory is on overlay" in run["isolation"]["reason"]
    assert (tree / "model.pt").read_text() == "ORIG"


def test_the_report_first_says_which_isolation_the_run_had(tree, home, capsys):
    (tree / "train.py").write_text("print('hi')\n")
    _, text = verify_text(capsys, "--devices", "cpu", "train.py")
    lines = text.splitlines()
    assert lines[1].startswith("isolation: each run had its own mount namespace")
    assert str(tree) in lines[1] and str(home) in lines[1]
    assert "not isolated: writes outside these folders" in lines[2]


# -- the fallback: copies -----------------------------------------------------------------------
FALLBACK_ATTACK = """\
import os, sqlite3, subprocess
from pathlib import Path
import torch
open("model.pt", "w").write("PWNED")
os.chmod("model.pt", 0o777)
os.remove("delete.me")
os.symlink("model.pt", "alias.pt"); open("alias.pt", "w").write("PWNED")
open(os.path.join("data", "..", "results.txt"), "w").write("PWNED")
(Path("data").resolve() / "train.csv").write_text("PWNED")
with open(os.path.realpath("data/link.csv"), "w") as f: f.write("PWNED")
subprocess.run(["sh", "-c", "echo x >> results.txt"], check=True)
db = sqlite3.connect("db.sqlite"); db.execute("CREATE TABLE t (v)"); db.commit(); db.close()
torch.save({}, os.path.join(os.path.dirname(__file__), "ckpt.pt"))
os.chdir("data"); open("train.csv", "w").write("PWNED")
print("cwd", os.getcwd(), "file", __file__)
"""


def fallback_tree(tree: Path) -> None:
    (tree / "data").mkdir()
    (tree / "data" / "train.csv").write_text("1,2\n")
    (tree / "data" / "link.csv").symlink_to(tree / "data" / "train.csv")  # absolute link
    for name in ("model.pt", "delete.me", "results.txt", "ckpt.pt"):
        (tree / name).write_text("ORIG")
    (tree / "train.py").write_text(FALLBACK_ATTACK)


def test_forced_fallback_copies_the_scripts_folder_and_says_so(tree, home, capsys, monkeypatch):
    monkeypatch.setenv(ISOLATION_ENV, COPY)
    fallback_tree(tree)
    before = snapshot(tree)
    code, text = verify_text(capsys, "--devices", "cpu", "--show-output", "train.py")
    lines = text.splitlines()
    head = next(n for n, line in enumerate(lines) if line.startswith("devlint verify"))
    assert lines[head + 1].startswith("isolation: COPIES ONLY, no overlay "
                                      f"({ISOLATION_ENV}=copy): {tree}")
    assert "NOT isolated: absolute paths" in lines[head + 2] and "$HOME" in lines[head + 2]
    assert code == 0 and f"/view{tree}/data file " in text  # it ran in the copy
    assert snapshot(tree) == before


def test_the_fallback_refuses_a_tree_over_its_copy_limit(tree, home, capsys, monkeypatch):
    monkeypatch.setenv(ISOLATION_ENV, COPY)
    monkeypatch.setenv(COPY_LIMIT_ENV, "0")
    fallback_tree(tree)
    before = snapshot(tree)
    code, report = verify(capsys, "--devices", "cpu", "train.py")
    error = report["devices"][0]["error"]
    assert code == 1 and error["type"] == "IsolationError"
    assert "was not started" in error["message"] and COPY_LIMIT_ENV in error["message"]
    assert snapshot(tree) == before


def test_copies_are_real_and_links_into_the_tree_point_into_the_copy(tmp_path):
    user = tmp_path / "user"
    (user / "data").mkdir(parents=True)
    (user / "data" / "a.csv").write_text("1\n")
    (user / "abs.csv").symlink_to(user / "data" / "a.csv")
    (user / "rel.csv").symlink_to("data/a.csv")
    (user / "outside").symlink_to(tmp_path)
    isolation = copies([str(user)], str(tmp_path / "run" / "view"), 1 << 20, "test")
    copy = Path(isolation.of(str(user)))
    assert not (copy / "data").is_symlink() and not (copy / "data" / "a.csv").is_symlink()
    assert os.readlink(copy / "abs.csv") == isolation.of(str(user / "data" / "a.csv"))
    assert os.readlink(copy / "rel.csv") == "data/a.csv"
    assert os.readlink(copy / "outside") == str(tmp_path)  # not the user's tree: as it was
    (copy / "abs.csv").write_text("PWNED")
    assert (user / "data" / "a.csv").read_text() == "1\n"
    assert [original for _, original in isolation.written()] == [str(user / "data" / "a.csv")]
    (tmp_path / "via").symlink_to(user)  # the project reached through a symlink
    assert isolation.run_path(str(tmp_path / "via" / "data" / "a.csv")) == str(
        copy / "data" / "a.csv")
    assert isolation.run_path(str(tmp_path / "via")) == str(copy)
    with pytest.raises(IsolationError, match="copy limit"):
        copies([str(user)], str(tmp_path / "run2" / "view"), 1, "test")


def test_nested_folders_are_isolated_once():
    assert outermost(["/a/b", "/a", "/c", "/a/b/c", "/c"]) == ["/a", "/c"]


def test_the_root_folder_is_overlaid_as_its_folders_but_not_the_kernels():
    """`/` (a container's working directory) cannot be overlaid under a running process."""
    folders = expand_root(["/", "/x/y"], [("/", "ext4"), ("/proc", "proc"), ("/tmp", "tmpfs")])
    assert "/tmp" in folders and "/usr" in folders and "/x/y" in folders
    assert "/proc" not in folders and "/" not in folders


def test_where_the_kernel_refuses_an_overlay_the_run_gets_copies_and_the_reason(
        tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise IsolationError("unshare (a mount namespace) refused: Operation not permitted")

    monkeypatch.setattr("devlint.verify.sandbox.overlay", refused)
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "f").write_text("x")
    (tmp_path / "run").mkdir()
    isolation = isolate([str(tmp_path / "user")], [str(tmp_path / "user")], str(tmp_path / "run"),
                        "", 1 << 20)
    assert isolation.kind == COPY and "Operation not permitted" in isolation.reason
    assert Path(isolation.of(str(tmp_path / "user" / "f"))).read_text() == "x"
    assert isolation.describe()["not_covered"].startswith("NOT isolated: absolute paths")


def test_the_file_system_of_a_path_is_its_innermost_mounts():
    """Where overlayfs refuses the scratch (a container's /tmp on its overlay root), the
    reason says so."""
    mounts = [("/", "overlay"), ("/tmp", "tmpfs"), ("/tmp/x/y", "ext4")]
    assert file_system_of("/tmp/x", mounts) == "tmpfs"
    assert file_system_of("/tmp/x/y/z", mounts) == "ext4"
    assert file_system_of("/var/tmp", mounts) == "overlay"
