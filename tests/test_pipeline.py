"""Parallel checking: the same results in the same order as one process, whatever happens to
a worker."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from devlint.lint import runner as pipeline
from devlint.lint.runner import check_files
from devlint.lint.selection import Selection

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


@pytest.mark.skipif(sys.platform != "linux", reason="patches a forked worker")
def test_a_dying_worker_costs_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()
    real = pipeline.analyze_path
    ran_here: list[str] = []

    def dies_in_a_worker(path: str, selection: Selection, data=None):
        if os.getpid() != parent:
            os._exit(1)  # as if the kernel had killed it
        ran_here.append(path)
        return real(path, selection, data)

    # pickled by reference, as `devlint.lint.runner.analyze_path`: the patched function
    dies_in_a_worker.__module__, dies_in_a_worker.__qualname__ = real.__module__, real.__qualname__
    expected = outcomes(FILES[:6], jobs=1)
    monkeypatch.setattr(pipeline, "analyze_path", dies_in_a_worker)
    assert outcomes(FILES[:6], jobs=2) == expected
    assert ran_here == [str(p) for p in FILES[:6]]  # all of them, after the pool broke


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
