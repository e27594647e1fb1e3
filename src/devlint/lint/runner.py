"""Check many files: serve unchanged ones from the cache, analyze the rest in a process pool,
and hand results back in the order the files were given, as they arrive.

Every file is read once: when the cache is on, this process reads it to hash it and a miss
sends those bytes to the worker (a pipe has nothing left for a second read); with no cache,
workers get paths and read the file themselves. Never trees: pickling a libcst tree costs more
than parsing it. One file runs in this process: a pool would only add its start.
"""
from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Optional

from devlint.workspace.cache import Cache, file_key
from devlint.workspace.discovery import is_notebook
from devlint.workspace.source import ReadError, read_source
from devlint.lint.selection import Selection
from devlint.lint.findings import Finding


@dataclass
class FileOutcome:
    path: str
    findings: list[Finding] = field(default_factory=list)
    error: Optional[str] = None  # one line, for stderr
    key: Optional[str] = None  # the cache key of the bytes that were analyzed
    cached: bool = False


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def analyze_path(path: str, selection: Selection, data: Optional[bytes] = None) -> FileOutcome:
    """One file, in whichever process runs it; never raises. `data`: its bytes, when they were
    read already."""
    if data is None:
        try:
            data = read_source(Path(path))
        except ReadError as exc:
            return FileOutcome(path, error=f"{path}: {exc}")
    from devlint.lint.analyze import analyze_bytes  # libcst: only where a file is analyzed
    from devlint.workspace.notebook import analyze_notebook

    analyze = analyze_notebook if is_notebook(path) else analyze_bytes
    try:
        findings = analyze(data, path, selection)
    except Exception as exc:  # a bug in devlint must not hide the other files' findings
        return FileOutcome(path, error=f"{path}: internal error: {type(exc).__name__}: {exc}")
    return FileOutcome(path, findings, key=file_key(data, selection))


def check_files(
    files: Iterable[Path], selection_for: Callable[[Path], Selection],
    cache: Optional[Cache] = None, jobs: int = 1, sources: Mapping[Path, bytes] = {},
) -> Iterator[FileOutcome]:
    """Outcomes in the order of `files`; fresh ones are added to `cache`. `sources`: the bytes
    of files that cannot be read by path (standard input)."""
    planned: list[tuple[str, Selection, Optional[FileOutcome], Optional[bytes]]] = []
    for path in files:
        selection = selection_for(path)
        outcome, data = _from_cache(path, selection, cache, sources.get(path) if sources else None)
        planned.append((str(path), selection, outcome, None if outcome else data))
    misses = [(path, selection, data) for path, selection, outcome, data in planned
              if outcome is None]
    computed = _analyze_all(misses, jobs)
    for path, selection, outcome, _ in planned:
        if outcome is None:
            outcome = next(computed)
            if cache is not None and outcome.key is not None:
                cache.put(outcome.key, outcome.findings)
        yield outcome
    # Let the pool generator run to its end: it shuts the pool down there. Left suspended, it
    # would be closed at interpreter exit, racing the executor's own exit hook.
    for _ in computed:
        pass


def _from_cache(path: Path, selection: Selection, cache: Optional[Cache],
                data: Optional[bytes]) -> tuple[Optional[FileOutcome], Optional[bytes]]:
    """The cached outcome, or None and the bytes read to look it up (None: not read)."""
    if cache is None:
        return None, data
    if data is None:
        try:
            data = read_source(path)
        except ReadError as exc:
            return FileOutcome(str(path), error=f"{path}: {exc}"), None
    findings = cache.get(file_key(data, selection), str(path))
    return (None if findings is None else FileOutcome(str(path), findings, cached=True)), data


def _analyze_all(misses: list[tuple[str, Selection, Optional[bytes]]],
                 jobs: int) -> Iterator[FileOutcome]:
    if jobs <= 1 or len(misses) <= 1:
        for path, selection, data in misses:
            yield analyze_path(path, selection, data)
        return
    # Imported here: a run of one process (and a warm run) never loads the pool's machinery.
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    import devlint.lint.analyze  # noqa: F401  (imported once here, inherited by every forked worker)
    workers = min(jobs, len(misses))
    # Small chunks: one 1 MB file can take as long as a thousand small ones.
    chunksize = max(1, min(8, len(misses) // (workers * 32)))
    pool = ProcessPoolExecutor(workers, mp_context=_context(), initializer=_ignore_sigint)
    done = 0
    try:
        paths, selections, datas = zip(*misses)
        for outcome in pool.map(analyze_path, paths, selections, datas, chunksize=chunksize):
            done += 1
            yield outcome
    except BrokenProcessPool:
        # A worker died (killed, out of memory): the rest run here, one at a time.
        for path, selection, data in misses[done:]:
            yield analyze_path(path, selection, data)
    except BaseException:  # Ctrl-C, or the consumer stopped early: stop the workers now
        processes = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        if manager is not None:
            manager.join(timeout=10)  # gone before the interpreter's exit hooks run
        raise
    pool.shutdown(wait=True)


def _context():
    import multiprocessing

    # fork starts a worker in milliseconds with everything imported; elsewhere the default.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool, workers just die.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
