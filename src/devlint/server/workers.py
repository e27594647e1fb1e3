"""Where the server's analyses run: worker processes, each analysis bounded as `devlint check`
bounds a file (FILE_CPU_SECONDS of CPU, then DEV998; an address space of WORKER_MEMORY_BYTES),
so one document's analysis never holds back another's and never grows the server itself.

Up to WORKERS analyses run at once, each in a worker of its own: a process forked from the
server with the engine imported, which keeps its own memo and module summaries; a document goes
back to the worker that analysed it last while that one is free. An analysis that a newer edit
overtook is stopped with its worker once it has run for STOP_STALE_AFTER_S (its result would be
dropped; a fresh worker takes the next job). A worker that dies (out of memory, a crash in
native code) or runs far past the CPU limit is stopped, and the document gets a DEV998 saying so.
"""
from __future__ import annotations

import os
import signal
import threading
import time
import traceback
from typing import Any, Callable, Optional

WORKERS = 3  # analyses at once: a heavy document takes one, the others go on
STOP_STALE_AFTER_S = 0.5  # an overtaken analysis shorter than this finishes (its worker stays warm)


class Workers:
    def __init__(self, size: int = WORKERS) -> None:
        self.size = size
        self.idle: list[_Worker] = []
        self.live = 0  # started and not stopped, busy or idle
        self.changed = threading.Condition()
        self.closed = False

    def run(self, key: str, function: Callable, args: tuple,
            stale: Callable[[], bool] = lambda: False) -> tuple[str, Any]:
        """`function(*args)` in a worker: ("done", its result), ("error", a traceback),
        ("stale", None) when `stale()` turned true and the worker was stopped, or
        ("stopped", why) when the worker died or ran past the limit."""
        from devlint.core.limits import FILE_CPU_SECONDS

        worker = self._take(key)
        try:
            worker.conn.send((function, args))
        except OSError:  # it died while idle (the OOM killer, say): a fresh one takes the job
            self._give_back(worker, False)
            worker = self._take(key)
            try:
                worker.conn.send((function, args))
            except OSError:
                self._give_back(worker, False)
                return "stopped", "the worker process analysing it could not be started"
        healthy = False
        try:
            limit = 3 * FILE_CPU_SECONDS  # wall time; the worker stops itself on CPU time
            started = time.monotonic()
            wait = STOP_STALE_AFTER_S
            while not worker.conn.poll(wait):
                ran = time.monotonic() - started
                if stale():
                    return "stale", None
                if ran > limit:
                    return "stopped", f"its analysis ran past {limit:.0f} s and was stopped"
                wait = 0.05
            status, value = worker.conn.recv()
            healthy = True
            return status, value
        except (EOFError, OSError):
            from devlint.lint.runner import _death

            return "stopped", _death(worker.wait(1), True, 0)
        finally:
            self._give_back(worker, healthy)

    def close(self) -> None:
        with self.changed:
            self.closed = True
            idle, self.idle = self.idle, []
            self.changed.notify_all()
        for worker in idle:
            worker.stop()

    def _take(self, key: str) -> "_Worker":
        with self.changed:
            while True:
                if self.closed:
                    raise RuntimeError("the server is exiting")
                mine = next((w for w in self.idle if w.last_key == key), None)
                if mine is not None or self.idle:
                    worker = mine or self.idle[-1]
                    self.idle.remove(worker)
                    worker.last_key = key
                    return worker
                if self.live < self.size:
                    self.live += 1
                    break
                self.changed.wait()
        try:
            worker = _Worker()
        except BaseException:
            with self.changed:
                self.live -= 1
                self.changed.notify()
            raise
        worker.last_key = key
        return worker

    def _give_back(self, worker: "_Worker", healthy: bool) -> None:
        with self.changed:
            keep = healthy and not self.closed
            if keep:
                self.idle.append(worker)
            else:
                self.live -= 1
            self.changed.notify()
        if not keep:
            worker.stop()


class _Worker:
    """A forked process serving jobs over a pipe. os.fork, not multiprocessing's Process:
    its child bootstrap closes sys.stdin, whose lock the server's reader thread holds while it
    waits for the editor's next message, and the child would wait on that lock for ever."""

    def __init__(self) -> None:
        from multiprocessing import Pipe

        _preload()
        self.conn, child = Pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the worker
            status = 0
            try:
                self.conn.close()
                _serve(child)
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        child.close()
        self.exitcode: Optional[int] = None
        self.last_key = ""

    def wait(self, timeout: float) -> Optional[int]:
        """Its exit code (negative: the signal that ended it) once it has ended, else None."""
        deadline = time.monotonic() + timeout
        while self.exitcode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                self.exitcode = -1
                break
            if pid:
                self.exitcode = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() >= deadline:
                break
            time.sleep(0.01)
        return self.exitcode

    def stop(self) -> None:
        if self.wait(0) is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.wait(5)
        self.conn.close()


_preloaded = False


def _preload() -> None:
    """Import the engine before the first fork, so no worker imports it (a module lock that
    another thread of the server held at the fork would never be released in the worker)."""
    global _preloaded
    if _preloaded:
        return
    import devlint.lint.analyze  # noqa: F401
    import devlint.workspace.importers  # noqa: F401
    import devlint.workspace.notebook  # noqa: F401
    import devlint.workspace.notebook_positions  # noqa: F401
    try:
        import pathspec  # noqa: F401  (the project walk's patterns)
    except ImportError:  # pragma: no cover
        pass
    _preloaded = True


def _serve(conn) -> None:
    """A worker: jobs from the server, one at a time, until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_the_server()
    os.dup2(2, 1)  # fd 1 is the editor's protocol stream: nothing here may write to it
    from devlint.core.limits import limit_memory

    limit_memory()
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = ("done", function(*args))
        except BaseException as exc:  # a bug in devlint: the server logs it and goes on
            answer = ("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return
        except Exception as exc:  # a result that does not pickle
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


def _die_with_the_server() -> None:
    """On Linux, the kernel kills the worker when the server ends, however it ends (a killed
    server's worker would otherwise finish its analysis first, up to the CPU limit)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the worker ends at its next job's read
        pass
