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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Optional

from devlint.workspace.cache import Cache, file_key, kind_of
from devlint.workspace.discovery import is_notebook
from devlint.workspace.importers import new_run
from devlint.workspace.project import same_file
from devlint.workspace.source import ReadError, read_source
from devlint.core.selection import Selection
from devlint.core.findings import Finding


@dataclass
class FileOutcome:
    path: str
    findings: list[Finding] = field(default_factory=list)
    error: Optional[str] = None  # one line, for stderr
    key: Optional[str] = None  # the cache key of the bytes that were analyzed
    cached: bool = False
    dependencies: Optional[list] = None  # what the result stands on besides the file's bytes
    routed: bool = False  # only findings other files' runs found in this file's code


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def analyze_path(path: str, selection: Selection, data: Optional[bytes] = None) -> FileOutcome:
    """One file, in whichever process runs it; never raises. `data`: its bytes, when they were
    read already."""
    from devlint.core.collector import one_file

    with one_file():
        return _analyze_path(path, selection, data)


def _analyze_path(path: str, selection: Selection, data: Optional[bytes]) -> FileOutcome:
    if data is None:
        try:
            data = read_source(Path(path))
        except ReadError as exc:
            return FileOutcome(path, error=f"{path}: {exc}")
    from devlint.lint.analyze import analyze_bytes  # libcst: only where a file is analyzed
    from devlint.lint.model.summaries import recording
    from devlint.lint.notebooks import analyze_notebook
    from devlint.workspace.project import portable

    try:
        with recording() as used:
            # with the findings its run shows in other files' code (see `check_project`)
            if is_notebook(path):
                findings = analyze_notebook(data, path, selection, keep_foreign=True)
            else:
                findings = analyze_bytes(data, path, selection, keep_foreign=True)
    except MemoryError:  # reading a notebook's JSON, say; the analysis reports its own
        return _cannot_analyse(path, selection, "devlint ran out of memory on it")
    except Exception as exc:  # a bug in devlint must not hide the other files' findings
        return FileOutcome(path, error=f"{path}: internal error: {type(exc).__name__}: {exc}")
    dependencies = portable(path, used.files, used.probes) if used.files or used.probes else None
    return FileOutcome(path, findings, key=file_key(data, selection, kind_of(path)),
                       dependencies=dependencies)


def check_files(
    files: Iterable[Path], selection_for: Callable[[Path], Selection],
    cache: Optional[Cache] = None, jobs: int = 1, sources: Mapping[Path, bytes] = {},
    same_run: bool = False,
) -> Iterator[FileOutcome]:
    """Outcomes in the order of `files`; fresh ones are added to `cache`. `sources`: the bytes
    of files that cannot be read by path (standard input). A new run looks at the project's
    files again (`workspace.importers.new_run`); `same_run`: part of the run before it (a
    flake8 worker's file after the run over all of them)."""
    if not same_run:
        new_run()
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
                cache.put(outcome.key, outcome.path, outcome.findings, outcome.dependencies)
        yield outcome
    # Let the pool generator run to its end: it shuts the pool down there. Left suspended, it
    # would be closed at interpreter exit, racing the executor's own exit hook.
    for _ in computed:
        pass


def check_project(
    files: list[Path], selection_for: Callable[[Path], Selection],
    cache: Optional[Cache] = None, jobs: int = 1, sources: Mapping[Path, bytes] = {},
    context: Iterable[Path] = (),
) -> Iterator[FileOutcome]:
    """`check_files`, with the findings a file's run shows in another file's code (a CPU tensor
    in the `forward` of a model train.py moves) routed to that file: reported only when it is
    one of `files`, once (a finding of its own run wins), under its own `per-file-ignores`,
    after every checked file's outcome. `context`: files analysed only for what they show in
    `files` (the importers of a staged file); nothing else of theirs is reported."""
    files = list(files)
    checked = {same_file(p): str(p) for p in files}
    extra = [p for p in context if same_file(p) not in checked]
    held: dict[str, list[Finding]] = {}
    seen: set = set()
    for index, outcome in enumerate(check_files(files + extra, selection_for, cache, jobs, sources)):
        own = []
        for finding in outcome.findings:
            if finding.path == outcome.path:
                own.append(finding)
                continue
            target = checked.get(same_file(finding.path))
            if target is not None and selection_for(Path(target)).enabled(finding.code):
                held.setdefault(target, []).append(shown(finding, target, checked))
        if index >= len(files):
            continue  # a context file: nothing of its own is reported
        seen.update((same_file(f.path),) + place for f in own for place in places(f))
        yield replace(outcome, findings=own) if len(own) != len(outcome.findings) else outcome
    for target in (str(p) for p in files):
        fresh = []
        for finding in sorted(held.get(target, ()), key=Finding.sort_key):
            if _identity(finding) not in seen:
                seen.add(_identity(finding))
                fresh.append(finding)
        if fresh:
            yield FileOutcome(target, fresh, routed=True)


def _identity(finding: Finding) -> tuple:
    return (same_file(finding.path), finding.cell, finding.line, finding.column, finding.code)


def places(finding: Finding) -> list[tuple]:
    """(cell, line, column, code) of a finding, and of the place a DEV001 names as another
    site of its own root cause (a file's hard-coded CUDA literals get one finding, at the first,
    naming the next): another run's finding there, reached through an importer, is this one."""
    found = [(finding.cell, finding.line, finding.column, finding.code)]
    related = finding.related
    if finding.code == "DEV001" and related is not None and related.path is None:
        found.append((related.cell, related.location.line, related.location.column, finding.code))
    return found


def shown(finding: Finding, target: str, checked: dict) -> Finding:
    """A routed finding under the names the user gave: the checked file's path as given, other
    files' paths relative to the working directory when they lie under it."""
    def named(path: Optional[str]) -> Optional[str]:
        if path is None:
            return None
        given = checked.get(same_file(path))
        if given is not None:
            return given
        relative = os.path.relpath(os.path.abspath(path))
        return path if relative.startswith("..") else relative

    related = finding.related
    if related is not None and related.path is not None:
        related = replace(related, path=named(related.path))
    reached, message = finding.reached, finding.message
    if reached is not None and reached.path is not None:
        reached = replace(reached, path=named(reached.path))
        where = (f"{reached.path}:{reached.location.line}" if reached.cell is None else
                 f"{reached.path} cell {reached.cell}, line {reached.location.line}")
        message = f"{message} (reached from {where})"
    return replace(finding, path=target, message=message, related=related, reached=reached)


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
    findings = cache.get(file_key(data, selection, kind_of(path)), str(path))
    return (None if findings is None else FileOutcome(str(path), findings, cached=True)), data


def _analyze_all(misses: list[tuple[str, Selection, Optional[bytes]]],
                 jobs: int) -> Iterator[FileOutcome]:
    if jobs <= 1 or len(misses) <= 1:
        for path, selection, data in misses:
            yield analyze_path(path, selection, data)
        return
    # Imported here: a run of one process (and a warm run) never loads the pool's machinery.
    import devlint.lint.analyze  # noqa: F401  (imported once here, inherited by every forked worker)

    yield from _pooled(misses, min(jobs, len(misses)))


def _pooled(misses: list[tuple[str, Selection, Optional[bytes]]], workers: int) -> Iterator[FileOutcome]:
    """The files in a pool of worker processes, outcomes in order. A worker that dies (killed,
    out of memory, a crash in libcst's native parser) takes only its own files with it: the
    files it was analysing then run again each in a process of its own, where a second death
    is that file's DEV998, and a fresh pool goes on with the rest. No file ever runs in this
    process after killing a worker: it would kill the whole run."""
    from concurrent.futures.process import BrokenProcessPool

    known: dict[int, FileOutcome] = {}  # outcomes of files run alone after a break
    start = 0
    while start < len(misses):
        todo = [i for i in range(start, len(misses)) if i not in known]
        if not todo:
            yield from (known.pop(i) for i in range(start, len(misses)))
            return
        slots = _context().Array("q", [_FREE] * workers)  # what each worker is analysing
        pool, outcomes = _start_pool(workers, slots, [(i, *misses[i]) for i in todo])
        try:
            for i in range(start, len(misses)):
                yield known.pop(i) if i in known else next(outcomes)
                start = i + 1
        except BrokenProcessPool:
            _stop(pool)
            suspects = [i for i in slots[:] if i >= start]
            for i in suspects or [next(i for i in range(start, len(misses)) if i not in known)]:
                known[i] = _isolated(*misses[i])
            continue
        except BaseException:  # Ctrl-C, or the consumer stopped early: stop the workers now
            _stop(pool)
            raise
        pool.shutdown(wait=True)


# Files next to each other import the same modules, and a worker keeps the summaries and trees
# of what its files imported (`lint.model.summaries`): a worker handed a run of neighbouring
# files builds each summary once, where workers handed files in turn would each build all of
# them. So the pool is handed runs of consecutive files (discovery lists a folder's files
# together), each run a share of the work left, down to one file at the end, so the last runs
# still even out the workers (guided self-scheduling) when one file costs as much as a thousand
# (a 1 MB one). On 1,068 files of 9 sdists with 2 workers (2026-12-05): 7% less CPU than runs
# of at most 8 files, in the same wall time.
CHUNK_SHARE = 2  # a run is 1/(workers * CHUNK_SHARE) of the files left
MAX_CHUNK = 256


def chunks(count: int, workers: int) -> Iterator[tuple[int, int]]:
    """The runs [start, end) that `count` files are handed out in."""
    start = 0
    while start < count:
        size = max(1, min(MAX_CHUNK, (count - start) // (workers * CHUNK_SHARE)))
        yield start, min(count, start + size)
        start += size


def _start_pool(workers: int, slots, items: list[tuple[int, str, Selection, Optional[bytes]]]):
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(workers, mp_context=_context(), initializer=_start_worker,
                               initargs=(slots,))
    runs = [pool.submit(_analyze_run, items[start:end]) for start, end in chunks(len(items), workers)]
    return pool, (outcome for run in runs for outcome in run.result())


def _analyze_run(items: list[tuple[int, str, Selection, Optional[bytes]]]) -> list[FileOutcome]:
    return [_analyze_marked(*item) for item in items]


def _stop(pool) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    if manager is not None:
        manager.join(timeout=10)  # gone before the interpreter's exit hooks run


_slots = None  # in a worker: the shared array of what each worker analyses, and its own slot
_slot = 0
_IDLE, _FREE = -2, -1


def _start_worker(slots) -> None:
    global _slots, _slot
    _ignore_sigint()
    from devlint.core.limits import limit_memory

    limit_memory()
    with slots.get_lock():
        _slot = next(i for i in range(len(slots)) if slots[i] == _FREE)
        slots[_slot] = _IDLE
    _slots = slots


def _analyze_marked(index: int, path: str, selection: Selection, data: Optional[bytes]) -> FileOutcome:
    _slots[_slot] = index
    try:
        return analyze_path(path, selection, data)
    finally:
        _slots[_slot] = _IDLE


def _isolated(path: str, selection: Selection, data: Optional[bytes] = None) -> FileOutcome:
    """`path` analysed in a process of its own: its outcome, or DEV998 when that process dies
    or outlives the CPU limit by far."""
    from devlint.core.limits import FILE_CPU_SECONDS

    context = _context()
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(target=_isolated_child, args=(writer, path, selection, data), daemon=True)
    process.start()
    writer.close()
    answered = False
    try:
        answered = reader.poll(3 * FILE_CPU_SECONDS)  # wall time; the child stops itself on CPU
        if answered:
            return reader.recv()
    except EOFError:
        pass  # it died before answering
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        reader.close()
    return _cannot_analyse(path, selection, _death(process.exitcode, answered, 3 * FILE_CPU_SECONDS))


def _death(exitcode: Optional[int], answered: bool, waited: float) -> str:
    if not answered:
        return f"its analysis ran past {waited:.0f} s and was stopped"
    if exitcode is not None and exitcode < 0:
        return (f"it killed the worker process analysing it ({signal.Signals(-exitcode).name}; "
                "out of memory?)")
    return f"the worker process analysing it exited with status {exitcode}"


def _isolated_child(writer, path: str, selection: Selection, data: Optional[bytes]) -> None:
    _ignore_sigint()
    from devlint.core.limits import limit_memory

    limit_memory()
    writer.send(analyze_path(path, selection, data))
    writer.close()


def _cannot_analyse(path: str, selection: Selection, why: str) -> FileOutcome:
    from devlint.lint.analyze import cannot_analyse
    from devlint.core.limits import CANNOT_ANALYSE_CODE, Unanalysable

    findings = [cannot_analyse(path, Unanalysable(1, 1, why))] if selection.enabled(CANNOT_ANALYSE_CODE) else []
    return FileOutcome(path, findings)


def _context():
    import multiprocessing

    # fork starts a worker in milliseconds with everything imported; elsewhere the default.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool, workers just die.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
