"""Parallel checking: the same results in the same order as one process, whatever happens to
a worker."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from devlint.lint import runner as pipeline
from devlint.lint.runner import check_files
from devlint.core.selection import Selection

from conftest import FIXTURES

FILES = sorted(FIXTURES.glob("DEV00[1-4]/*.py"))


def outcomes(files: list[Path], jobs: int) -> list:
    return [(o.path, o.findings, o.error) for o in check_files(files, lambda p: Selection(), None, jobs)]


def test_two_processes_give_one_processs_results_in_file_order() -> None:
    serial = outcomes(FILES, jobs=1)
    parallel = outcomes(FILES, jobs=2)
    assert parallel == serial
    assert [path for path, _, _ in parallel] == [str(p) for p in FILES]
    assert sum(len(f) for _, f, _ in serial) > 30


def test_one_file_never_starts_a_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for one file")

    import concurrent.futures

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_pool)
    assert outcomes(FILES[:1], jobs=8)[0][1]


def _patch_analysis(monkeypatch: pytest.MonkeyPatch, replacement) -> None:
    """Patch the analysis of one file in this process, before the pool forks its workers."""
    import devlint.lint.analyze as analyze

    real = analyze.analyze_bytes

    def patched(data: bytes, path: str, selection: Selection = Selection(), **options):
        replacement(path)
        return real(data, path, selection, **options)

    monkeypatch.setattr(analyze, "analyze_bytes", patched)


@pytest.mark.skipif(sys.platform != "linux", reason="patches a forked worker")
def test_a_worker_killed_once_costs_no_result(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The kernel kills a worker (OOM killer, a timeout): the files it held run again, each in
    a process of its own, and give their usual results."""
    parent, victim = os.getpid(), str(FILES[2])

    def killed_once(path: str) -> None:
        assert os.getpid() != parent, f"{path} ran in the main process"
        if path == victim and not (tmp_path / "killed").exists():
            (tmp_path / "killed").touch()
            os.kill(os.getpid(), signal.SIGKILL)

    expected = outcomes(FILES[:6], jobs=1)
    _patch_analysis(monkeypatch, killed_once)
    assert outcomes(FILES[:6], jobs=2) == expected
    assert (tmp_path / "killed").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="patches a forked worker")
def test_a_file_that_kills_its_worker_is_dev998_and_never_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """libcst's native parser aborts on a file (out of memory): that file is DEV998, every
    other file keeps its findings, and the killer never runs in this process, where it would
    take the whole run with it."""
    parent, killer = os.getpid(), str(FILES[3])

    def aborts_on_one_file(path: str) -> None:
        assert os.getpid() != parent, f"{path} ran in the main process"
        if path == killer:
            import faulthandler

            faulthandler.disable()  # pytest's would print the aborting stack
            os.abort()

    expected = outcomes(FILES[:8], jobs=1)
    _patch_analysis(monkeypatch, aborts_on_one_file)
    got = outcomes(FILES[:8], jobs=2)
    assert [o for o in got if o[0] != killer] == [o for o in expected if o[0] != killer]
    (finding,) = next(o[1] for o in got if o[0] == killer)
    assert finding.code == "DEV998" and "killed the worker process analysing it (SIGABRT" in finding.message


@pytest.mark.skipif(sys.platform != "linux", reason="an address-space limit in a forked worker")
def test_a_worker_out_of_memory_reports_that_file(monkeypatch: pytest.MonkeyPatch) -> None:
    import devlint.lint.analyze as analyze
    from devlint.core import limits

    greedy, current = str(FILES[1]), [""]
    real = analyze.run_rules

    def allocates_past_the_limit(module, rules, *rest):
        if current[0] == greedy:
            bytearray(3 << 30)
        return real(module, rules, *rest)

    _patch_analysis(monkeypatch, lambda path: current.__setitem__(0, path))
    monkeypatch.setattr(limits, "WORKER_MEMORY_BYTES", _address_space() + (1 << 30))
    monkeypatch.setattr(analyze, "run_rules", allocates_past_the_limit)
    got = outcomes(FILES[:4], jobs=2)
    (finding,) = next(o[1] for o in got if o[0] == greedy)
    assert finding.code == "DEV998" and "ran out of memory" in finding.message
    assert all(o[1] for o in got if o[0] != greedy)


def _address_space() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmSize")


def test_an_analysis_past_its_cpu_time_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    import devlint.lint.analyze as analyze
    from devlint.core import limits

    def spins(module, rules, *rest):
        while True:
            pass

    monkeypatch.setattr(limits, "FILE_CPU_SECONDS", 0.5)
    monkeypatch.setattr(analyze, "run_rules", spins)
    (finding,) = analyze.analyze_source("import torch\nd = torch.device('cuda')\n", "t.py")
    assert finding.code == "DEV998" and "took over 0.5 s of CPU" in finding.message


def test_a_20_mb_file_among_small_ones(tmp_path: Path) -> None:
    """The reproduction: with the address space of a CI runner, a 20 MB module aborted the
    worker and then the main process (exit 134); every finding was lost."""
    head = "import torch\nd = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n" \
           "model = torch.nn.Linear(4, 1).to(d)\n"
    loop = "for x, y in loader:\n    out = model(x)\n"
    line = "v = compute(1, [1, 2, 3], key='k')\n"
    (tmp_path / "b_generated.py").write_text(head + line * (20_000_000 // len(line)) + loop)
    for n in range(6):
        (tmp_path / f"a{n}.py").write_text(head + loop)
    prlimit = ["prlimit", "--as=6000000000"] if sys.platform == "linux" and shutil.which("prlimit") else []
    result = subprocess.run([*prlimit, sys.executable, "-m", "devlint", "check", "--no-cache", "-j", "2", "."],
                            cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stderr
    assert result.stdout.count(": DEV002 ") == 6
    assert "b_generated.py:1:1: DEV998 devlint cannot analyse this file: the file is 20.0 MB" in result.stdout
    assert "Traceback" not in result.stderr


def test_cli_jobs_flag_keeps_the_output_identical(tmp_path: Path) -> None:
    def check(*flags: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", *flags,
                               str(FIXTURES / "DEV002")], capture_output=True, text=True)

    one, two = check("-j", "1"), check("--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout and one.stdout.count("DEV002") > 5
    bad = check("-j", "-3")
    assert bad.returncode == 2 and "must be 0" in bad.stderr


def test_the_pool_is_gone_when_the_last_result_is_out() -> None:
    """A pool still up at interpreter exit races the executor's exit hook (a traceback on
    stderr under load): the run must shut it down itself, workers and manager thread."""
    import multiprocessing
    import threading

    assert len(outcomes(FILES[:4], jobs=2)) == 4
    assert multiprocessing.active_children() == []
    assert not [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]


@pytest.mark.skipif(sys.platform != "linux", reason="patches a forked process")
def test_a_file_run_alone_that_hangs_is_stopped_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wait, not CPU (the CPU limit cannot see it): the wall-clock bound stops the process."""
    import multiprocessing
    import time

    from devlint.core import limits

    parent = os.getpid()
    monkeypatch.setattr(limits, "FILE_CPU_SECONDS", 0.5)
    _patch_analysis(monkeypatch, lambda path: time.sleep(60) if os.getpid() != parent else None)
    outcome = pipeline._isolated(str(FILES[0]), Selection())
    (finding,) = outcome.findings
    assert finding.code == "DEV998" and "ran past 2 s and was stopped" in finding.message
    assert multiprocessing.active_children() == []


def test_the_pool_is_handed_runs_of_neighbouring_files_shrinking_to_one() -> None:
    from devlint.lint.runner import MAX_CHUNK, chunks

    for count, workers in ((0, 2), (1, 2), (7, 4), (1068, 2), (5000, 8)):
        runs = list(chunks(count, workers))
        assert [start for start, _ in runs] == [0, *(end for _, end in runs)][:len(runs)]
        assert (runs[-1][1] if runs else 0) == count
        sizes = [end - start for start, end in runs]
        assert all(1 <= size <= MAX_CHUNK for size in sizes)
        assert sizes == sorted(sizes, reverse=True)
        assert not sizes or sizes[-1] == 1
    assert len(list(chunks(1068, 2))) > 8  # not one run per worker: the last ones even out
