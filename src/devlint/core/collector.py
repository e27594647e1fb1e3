"""How often Python's cyclic collector walks the whole heap while devlint analyses.

A run keeps large structures alive for its whole length: the libcst trees and summaries of the
project's modules (`lint.model.summaries`), the parsed text of big files. CPython's default
pacing (a full collection after every 10 collections of the middle generation, once a quarter
of the heap is new) then walks those millions of objects over and over: on 7 sdists (366
files, one process, 2026-12-03) 12 full collections took 4.3 of 17.3 CPU s of a project-mode
run (0.35 s each) and 2.8 of 13.9 s of a `--no-project` one. An analysis makes a full
collection at most every FULL_COLLECTION_EVERY collections of the middle generation instead
(1 in that run, 0.6 s); the young generations keep their pace, so the cycles a file's model
leaves behind are still freed as promptly, and peak memory stayed within 3% (mypy paces its
collector for the same reason). The pacing is set for an analysis and restored after it, so
a host process (flake8, an editor) keeps its own.
"""
from __future__ import annotations

import contextlib
import gc
from typing import Iterator

FULL_COLLECTION_EVERY = 100  # CPython's default is 10


@contextlib.contextmanager
def paced_collector() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], max(before[2], FULL_COLLECTION_EVERY))
    try:
        yield
    finally:
        gc.set_threshold(*before)


# --- file after file: `devlint check`, its workers, flake8's ------------------------------------
# Most of what a file's analysis allocates is garbage when it ends, and what outlives it (the
# project's summaries and trees, kept for the next files) lives for the whole run. So the
# collector is off during a file and runs once at its end, over only what this file left (the
# rest is frozen), and then freezes the survivors: no later collection walks them again. Frozen
# objects are still freed by their reference counts. A frozen cycle becomes garbage when a cache
# lets go of it: a summary evicted from its cache, or replaced by one of the file's new bytes,
# takes its interpreter and its module's tree (millions of objects in cycles with each other).
# Such garbage waits for a full collection of the whole heap: after DROPS_BEFORE_THAW summaries
# were let go, or every THAW_EVERY files for whatever else a frozen object held. Thawing every
# 256 files instead took 4.3 of 44 CPU s of a project-mode run on 1,068 files of 9 sdists (one
# process, 2026-12-05); the first three of those four full collections found under 17,000
# unreachable objects, the fourth (after evictions) a million.
# (`gc.get_freeze_count()` walks the frozen list: it is not asked.)

THAW_EVERY = 4096  # files between full collections of the whole heap, at most
# Summaries let go before a full collection: as many stay in memory as garbage, at most, beside
# the caches' 512 (`lint.model.summaries.MAX_SUMMARIES`).
DROPS_BEFORE_THAW = 128
_files = 0
_drops = 0


def dropped(count: int = 1) -> None:
    """A cache let go of a summary: frozen garbage that only a full collection frees."""
    global _drops
    _drops += count


@contextlib.contextmanager
def one_file() -> Iterator[None]:
    """One file's analysis in a process that analyses file after file. A host whose collector
    is off (it manages its own) is left alone."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        _settle()


def _settle() -> None:
    global _files, _drops
    _files += 1
    if _files % THAW_EVERY == 0 or _drops >= DROPS_BEFORE_THAW:
        _drops = 0
        gc.unfreeze()
        gc.collect()
    else:
        gc.collect(1)  # this file's leftovers: everything older is frozen
    gc.freeze()
