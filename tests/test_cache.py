"""The result cache: same answers warm as cold, never stale, never a reason to fail."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from devlint.workspace.cache import FORMAT, Cache, file_key
from devlint.lint.runner import check_files
from devlint.core.selection import Selection

from conftest import FIXTURES

SAMPLE = sorted(FIXTURES.glob("DEV00[1-3]/*.py"))


def run(files: list[Path], cache: Cache, selection: Selection = Selection()) -> list:
    return list(check_files(files, lambda path: selection, cache, jobs=1))


def test_warm_run_serves_every_file_with_the_same_findings(tmp_path: Path) -> None:
    cold = Cache.open(tmp_path)
    first = run(SAMPLE, cold)
    assert cold.save() is None and cold.hits == 0
    warm = Cache.open(tmp_path)
    second = run(SAMPLE, warm)
    assert warm.hits == len(SAMPLE) and all(o.cached for o in second)
    assert [o.findings for o in second] == [o.findings for o in first]
    assert sum(len(o.findings) for o in first) > 20
    # fixes survive the round trip, edits included (SARIF reports them)
    assert [f.fix for o in second for f in o.findings] == [f.fix for o in first for f in o.findings]


def test_an_edit_a_new_selection_or_a_new_place_decide_right(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    bad = work / "train.py"
    shutil.copy(FIXTURES / "DEV001" / "bad_torch_device_cuda_script.py", bad)
    cache = Cache.open(tmp_path / "cache")
    assert run([bad], cache)[0].findings
    cache.save()

    bad.write_text("print('no torch here')\n")
    edited = Cache.open(tmp_path / "cache")
    assert run([bad], edited)[0].findings == [] and edited.hits == 0

    shutil.copy(FIXTURES / "DEV001" / "bad_torch_device_cuda_script.py", bad)
    narrowed = Cache.open(tmp_path / "cache")
    assert run([bad], narrowed, Selection(select=("DEV002",)))[0].findings == []
    assert narrowed.hits == 0

    moved = work / "moved.py"
    bad.rename(moved)
    again = Cache.open(tmp_path / "cache")
    outcome = run([moved], again)[0]
    assert again.hits == 1 and {f.path for f in outcome.findings} == {str(moved)}


@pytest.mark.parametrize("content", [b"\x00\xff garbage", b"[]", b'{"format": %d, "entries": []}' % FORMAT,
                                     b'{"format": %d, "entries": {"%%s": [[1, 2]]}}' % FORMAT])
def test_a_corrupt_cache_is_ignored(tmp_path: Path, content: bytes) -> None:
    target = FIXTURES / "DEV001" / "bad_torch_device_cuda_script.py"
    expected = run([target], Cache(tmp_path / "none"))[0].findings
    key = file_key(target.read_bytes(), Selection(), "python")
    cache = Cache.open(tmp_path)
    cache.index.parent.mkdir(parents=True, exist_ok=True)
    cache.index.write_bytes(content.replace(b"%s", key.encode()))
    cache = Cache.open(tmp_path)
    assert run([target], cache)[0].findings == expected
    assert cache.save() is None
    assert json.loads(cache.index.read_text())["format"] == FORMAT


def test_two_runs_writing_at_once_both_keep_their_entries(tmp_path: Path) -> None:
    one, two = Cache.open(tmp_path), Cache.open(tmp_path)  # both start from an empty cache
    run(SAMPLE[:3], one)
    run(SAMPLE[3:6], two)
    one.save()
    two.save()  # merges what `one` wrote since `two` opened
    merged = Cache.open(tmp_path)
    run(SAMPLE[:6], merged)
    assert merged.hits == 6


@pytest.mark.skipif(sys.platform == "win32", reason="fcntl: saves are serialised on POSIX")
def test_another_process_cannot_save_while_one_merges(tmp_path: Path, monkeypatch) -> None:
    """Between reading the index and replacing it, a save holds the directory's lock: flake8's
    workers all save as they end, and one merging what was there before another wrote would
    drop that worker's entries."""
    cache = Cache.open(tmp_path / "cache")
    cache.put(file_key(b"x = 1\n", Selection(), "python"), "a.py", [])
    seen = []
    merge = Cache._merge_and_write
    probe = ("import fcntl, sys\n"
             "handle = open(sys.argv[1], 'ab')\n"
             "try:\n    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept OSError:\n"
             "    sys.exit(3)\n")

    def merging(self) -> None:
        seen.append(subprocess.run([sys.executable, "-c", probe, str(self.directory / ".lock")],
                                   timeout=60).returncode)
        merge(self)

    monkeypatch.setattr(Cache, "_merge_and_write", merging)
    assert cache.save() is None
    assert seen == [3]  # the other process found the lock taken
    assert Cache.open(tmp_path / "cache").index.exists()


def test_an_unwritable_cache_warns_and_the_run_stands(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    target = FIXTURES / "DEV001" / "bad_torch_device_cuda_script.py"
    proc = subprocess.run(
        [sys.executable, "-m", "devlint", "check", "--cache-dir", str(blocker / "cache"), str(target)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 1, proc.stderr
    assert "DEV001" in proc.stdout
    assert proc.stderr.startswith("devlint: warning: cannot write the cache")
    assert "Traceback" not in proc.stderr


def test_cli_writes_a_tagged_cache_and_no_cache_writes_none(tmp_path: Path) -> None:
    target = str(FIXTURES / "DEV001")
    env = {**os.environ, "DEVLINT_CACHE_DIR": str(tmp_path / "c")}
    cold = subprocess.run([sys.executable, "-m", "devlint", "check", target],
                          capture_output=True, text=True, env=env)
    warm = subprocess.run([sys.executable, "-m", "devlint", "check", target],
                          capture_output=True, text=True, env=env)
    assert cold.returncode == warm.returncode == 1
    assert cold.stdout == warm.stdout
    assert (tmp_path / "c" / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    skipped = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", target],
                             capture_output=True, text=True,
                             env={**env, "DEVLINT_CACHE_DIR": str(tmp_path / "d")})
    assert skipped.stdout == cold.stdout and not (tmp_path / "d").exists()


def test_changed_analysis_code_never_serves_old_findings(tmp_path: Path, monkeypatch) -> None:
    """A checkout whose rules changed (same version number) must not read the old results."""
    import devlint.workspace.cache as cache_module

    work = tmp_path / "train.py"
    shutil.copy(FIXTURES / "DEV001" / "bad_torch_device_cuda_script.py", work)
    first = Cache.open(tmp_path / "cache")
    run([work], first)
    assert first.save() is None
    assert Cache.open(tmp_path / "cache").entries, "the same code reads its own results back"
    monkeypatch.setattr(cache_module, "_ENGINE_DIGEST", "another-engine")
    changed = Cache.open(tmp_path / "cache")
    assert not changed.entries
    run([work], changed)
    assert changed.hits == 0


def test_the_engine_digest_follows_the_rules_bytes(monkeypatch) -> None:
    import devlint.workspace.cache as cache_module

    before = cache_module.engine_digest()
    real = Path.read_bytes

    def edited(path: Path) -> bytes:
        data = real(path)
        return data + b"# edited" if path.name == "dev002_batch_not_moved.py" else data

    monkeypatch.setattr(cache_module, "_ENGINE_DIGEST", None)
    monkeypatch.setattr(Path, "read_bytes", edited)
    assert cache_module.engine_digest() != before


def test_an_empty_notebook_and_an_empty_module_do_not_share_an_entry(tmp_path: Path) -> None:
    """The same bytes read as a notebook (malformed: DEV999) and as Python (clean)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "pkg").mkdir()
    notebook, module = tmp_path / "a" / "Untitled.ipynb", tmp_path / "pkg" / "__init__.py"
    notebook.write_bytes(b"")
    module.write_bytes(b"")
    for order in ([notebook, module], [module, notebook], [module], [notebook]):
        cache = Cache.open(tmp_path / "cache")
        got = {o.path: [f.code for f in o.findings] for o in run(order, cache)}
        cache.save()
        assert got == {str(p): (["DEV999"] if p == notebook else []) for p in order}, order


@pytest.mark.parametrize("index", [
    # valid JSON to Python's reader, never written by this cache
    '{"format": %d, "entries": {"%%s": [[Infinity, 1, "DEV001", "m", null, null, null, null]]}}' % FORMAT,
    '{"format": %d, "entries": {"%%s": [[NaN, 1, "DEV001", "m", null, null, null, null]]}}' % FORMAT,
    '{"format": %d, "entries": ' % FORMAT + "[" * 100_000 + "]" * 100_000 + "}",
], ids=["Infinity", "NaN", "deep nesting"])
def test_a_corrupt_index_is_no_traceback_and_is_rewritten(tmp_path: Path, index: str) -> None:
    target = tmp_path / "a.py"
    target.write_text("import torch\nmodel = torch.nn.Linear(4, 1).cuda()\n")
    cache_dir = tmp_path / "cache"
    env = {**os.environ, "DEVLINT_CACHE_DIR": str(cache_dir)}
    check = [sys.executable, "-m", "devlint", "check", "--format", "json", "a.py"]
    cold = subprocess.run(check, cwd=tmp_path, capture_output=True, text=True, env=env)
    key = next(iter(json.loads(Cache.open(cache_dir).index.read_text())["entries"]))
    Cache.open(cache_dir).index.write_text(index.replace("%s", key))
    for _ in range(2):  # and the next run reads a good index again
        again = subprocess.run(check, cwd=tmp_path, capture_output=True, text=True, env=env)
        assert (again.returncode, again.stdout, again.stderr) == (1, cold.stdout, "")
    rewritten = Cache.open(cache_dir).index.read_text()
    assert "Infinity" not in rewritten and "NaN" not in rewritten and len(rewritten) < 10_000


@pytest.mark.parametrize("row", [
    [1.5, 1, "DEV001", "m", None, None, None, None], # a float line
    [True, 1, "DEV001", "m", None, None, None, None], # a bool is an int to Python
    [0, 1, "DEV001", "m", None, None, None, None], # lines count from 1
    ["3", 1, "DEV001", "m", None, None, None, None],
    [3, 1, "E501", "m", None, None, None, None], # not a devlint code
    [3, 1, "DEV001", 7, None, None, None, None],
    [3, 1, "DEV001", "m", [1, 2], None, None, None], # a related location of two fields
    [3, 1, "DEV001", "m", None, ["d", "sometimes", []], None, None],
    [3, 1, "DEV001", "m", None, ["d", "safe", [[5, 2, "x"]]], None, None],  # an edit that ends first
    [3, 1, "DEV001", "m", None, None, "/etc/passwd", None],  # not a cell
    [3, 1, "DEV001", "m", None, None, None],  # seven fields
    "DEV001",
    [3, 1, "DEV001", "m", None, None, None, [0, 1]],  # a place before line 1
], ids=lambda row: repr(row)[:40])
def test_an_entry_of_another_shape_is_computed_again(tmp_path: Path, row) -> None:
    target = FIXTURES / "DEV001" / "bad_torch_device_cuda_script.py"
    expected = run([target], Cache(tmp_path / "none"))[0].findings
    cache = Cache.open(tmp_path)
    cache.entries[file_key(target.read_bytes(), Selection(), "python")] = [row]
    outcome = run([target], cache)[0]
    assert outcome.findings == expected and not outcome.cached
