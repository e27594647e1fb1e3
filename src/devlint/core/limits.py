"""What devlint will analyse, and how much a file may cost: where the limits lie and why.

Every file goes through CPython's parser first (a syntax error is DEV999), then libcst's. Some
valid Python stays out of libcst's reach: a little syntax its parser refuses (`(x): int = 1`,
a tab after spaces in an indent), and inputs whose cost grows faster than their size (libcst's
parse of a chain of N subscripts, calls or attributes takes time in N squared; 2000 chained
subscripts take 6 s, ten of them a minute). libcst also needs about 700 MB of memory per MB of
source. Such a file is reported as DEV998, "devlint cannot analyse this file", with the
reason, and the run goes on: it is devlint's limit, not the file's fault, and it is never
silent, because a file that was not analysed was not checked.

The screen reads CPython's tree, which the syntax check has built anyway: its deepest nesting
and the squares of its long chains, a cheap bound on libcst's time. The limits are set so that
a file within them costs at most a few seconds and a few GB.
"""
from __future__ import annotations

import ast
import contextlib
import re
import signal
import sys
import threading
from typing import Iterator, Optional

CANNOT_ANALYSE_CODE = "DEV998"
MAX_SOURCE_CHARS = 4_000_000  # about 3 GB for libcst (and 0.7 GB more for CPython's tree)
MAX_DEPTH = 1000  # CPython-tree levels; the analysis recurses a few frames per level
CHAIN_BUDGET = 2_000_000  # sum of squared lengths of long chains: about 2-3 s of libcst's parse
LONG_CHAIN = 64  # shorter chains cost libcst nothing worth counting
RECURSION_LIMIT = 20 * MAX_DEPTH  # what MAX_DEPTH needs, far below where the C stack ends
FILE_CPU_SECONDS = 60  # one file's analysis, in a worker process or this one
IMPORT_LEVELS = 2  # imports followed from a checked file: train.py -> utils/__init__.py -> utils/data.py
WORKER_MEMORY_BYTES = 8 << 30  # a worker's address space: an allocation past it fails there

# A chain continues through these fields: `a.b`, `a[0]`, `f(x)`, `a + b` nest on the left.
_CHAIN_FIELDS = {ast.Attribute: "value", ast.Subscript: "value", ast.Call: "func", ast.BinOp: "left"}


class Unanalysable(Exception):
    """The file is valid Python that devlint cannot analyse: (line, column, reason)."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.column, self.reason = line, column, reason


class OutOfTime(BaseException):
    """Raised into the analysis when its CPU time is up. A BaseException, so that no
    `except Exception` on the way (libcst's, the rules') can swallow it."""


def check_size(text: str) -> None:
    if len(text) > MAX_SOURCE_CHARS:
        raise Unanalysable(1, 1, f"the file is {len(text) / 1e6:.1f} MB; devlint analyses files "
                                 f"up to {MAX_SOURCE_CHARS / 1e6:.0f} MB (its parser needs about "
                                 "0.7 GB of memory per MB)")


def screen(tree: ast.AST, text: Optional[str] = None) -> None:
    """Refuse, before libcst sees it, a file too deep or too costly for it (CPython's tree).
    `text`, the source of `tree`: a statement or expression too short to hold a long chain or
    deep nesting is passed over whole (`_too_short`), which leaves the walk a small part of
    the tree: it cost half of a libcst parse when it looked at every node."""
    cost = 0
    short = _too_short(text) if text is not None else None
    # node, its depth, the length of the chain it ends so far, the nearest node with a line
    stack: list[tuple[ast.AST, int, int, ast.AST]] = [(tree, 1, 1, tree)]
    while stack:
        node, depth, chain, located = stack.pop()
        if depth > MAX_DEPTH:
            raise Unanalysable(*_where(located), f"an expression here nests or chains more than "
                                                 f"{MAX_DEPTH} levels deep; devlint analyses up to that")
        if short is not None and chain == 1 and short(node, depth):
            continue
        field = _CHAIN_FIELDS.get(type(node))
        link = getattr(node, field) if field else None
        if field and chain >= LONG_CHAIN and type(link) not in _CHAIN_FIELDS:
            cost += chain * chain  # the innermost link: the chain is complete
            if cost > CHAIN_BUDGET:
                raise Unanalysable(*_where(located), f"the file chains attributes, calls, "
                                                     f"subscripts or operators too long (here "
                                                     f"{chain}) for devlint's parser, whose time "
                                                     "grows with the square of a chain")
        children = [c for c in ast.iter_child_nodes(node) if type(c) not in _CONTEXTS]
        # Reversed onto the stack: the first statement is looked at first, and named.
        stack.extend((child, depth + 1, chain + 1 if child is link else 1,
                      child if hasattr(child, "lineno") else located) for child in reversed(children))


def _too_short(text: str):
    """A test of whether a statement or an expression at some depth is too short to matter to
    the screen: below it, no chain reaches LONG_CHAIN links (each link, `.a`, `[i]`,
    `()`, `+ b`, takes at least two characters) and no node sinks past MAX_DEPTH (a level of
    CPython's tree takes at least one character: `-`, `[`, `f"{`). Its length is bounded from
    above: the UTF-8 bytes between its columns on one line, the characters of its whole lines
    on several (lines as CPython counts them)."""
    starts = [0] + [match.end() for match in _NEWLINE.finditer(text)]

    def short(node: ast.AST, depth: int) -> bool:
        if not isinstance(node, (ast.expr, ast.stmt)):
            return False
        first, last = node.lineno, node.end_lineno
        if last is None or node.end_col_offset is None:
            return False
        if first == last:
            length = node.end_col_offset - node.col_offset
        elif last < len(starts):
            length = starts[last] - starts[first - 1]
        else:
            length = len(text) - starts[first - 1]
        return length < 2 * LONG_CHAIN and depth + 2 * length < MAX_DEPTH

    return short


_NEWLINE = re.compile(r"\r\n|\r|\n")


_CONTEXTS = (ast.Load, ast.Store, ast.Del)  # a leaf under every name: nothing to look at


def _where(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """Room for MAX_DEPTH levels: the walk and the code generation recurse per level, and
    Python's default limit (1000 frames) ends near 300 chained calls."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


@contextlib.contextmanager
def cpu_budget() -> Iterator[None]:
    """Raise OutOfTime into the analysis after FILE_CPU_SECONDS of this process's CPU time.
    Only in the main thread (the only one signals reach); elsewhere no limit."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def out_of_time(signum, frame) -> None:
        raise OutOfTime()

    previous = signal.signal(signal.SIGPROF, out_of_time)
    signal.setitimer(signal.ITIMER_PROF, FILE_CPU_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@contextlib.contextmanager
def memory_budget() -> Iterator[None]:
    """An analysis in this process may grow its address space by WORKER_MEMORY_BYTES at most:
    past that an allocation fails (MemoryError, the file's DEV998) instead of the machine
    swapping. The same cap as a pool worker's, wherever the analysis runs (a one-file run,
    flake8, the server's workers); a process capped lower already (a pool worker) keeps its
    cap, and the limit it had comes back afterwards."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as handle:  # Linux: the address space in use, in pages
            used = int(handle.read().split()[0]) * resource.getpagesize()
    except (ImportError, OSError, ValueError):  # not Linux: no cap
        yield
        return
    wanted = used + WORKER_MEMORY_BYTES
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft <= wanted:
        yield  # capped as tight already
        return
    try:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def limit_memory(limit: Optional[int] = None) -> None:
    """Cap this process's address space (the soft limit, in a worker process): an allocation
    past it fails in that worker, which the run survives, rather than the machine swapping."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return
    limit = WORKER_MEMORY_BYTES if limit is None else limit
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > wanted:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
        except (ValueError, OSError):
            pass  # no cap: the size limit still bounds what a file may cost
