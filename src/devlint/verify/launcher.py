"""Starting the per-device runs, and making sure none of their processes outlives verify.

One "zygote" process imports torch once and forks a child per device run, so the runs pay
`import torch` and `torch._dynamo` (2-3 s, most of a small script's wall time) once in all
instead of once each:

    parent (devlint; never imports torch)             zygote (imported torch, waits)
      Launcher.start(spec, stdout, stderr)  --run-->  fork: the child gets its own process
                                          <-started-  group, the two fds as 1 and 2, and runs
      Launcher.events()                   <-exited--  devlint.verify.child; the zygote reaps it
      Launcher.close()                    --stop--->  kills every descendant, then exits

Nothing the script starts can escape: on Linux the zygote is a child subreaper, so a process
the script detaches (setsid, a double fork) is re-parented to the zygote instead of init, and
closing the zygote kills it; the zygote also dies with the parent (PR_SET_PDEATHSIG), so even
a SIGKILL to devlint stops the runs. A run on a real GPU, and every run where forking after
`import torch` is not safe (not Linux), execs a fresh interpreter from the fork instead:
CUDA must not be initialised before a fork, and the zygote never initialises it.

This module is the one place a run is launched. Under `--nproc N` the forked run is torchrun's
agent, which starts the ranks itself (torchrun.py): they are its descendants, so all of the
above holds for them too.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Optional

# Forking a process that imported torch is what DataLoader workers do on Linux; elsewhere
# (macOS: the Objective-C runtime, MPS) a fresh interpreter per run is the safe choice.
FORK_AFTER_IMPORT = sys.platform.startswith("linux")
PRELOAD = ("torch", "torch._dynamo", "torch.utils.data", "devlint.verify.child",
           "devlint.verify.recorder", "devlint.verify.shadow", "devlint.verify.sandbox")
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
_MESSAGE_LIMIT = 1 << 16
_real_exit = os._exit  # a run patches os._exit to report first; the zygote's own exits must not


class LaunchError(RuntimeError):
    """The zygote could not start a run (it died, or torch failed to import)."""


class Launcher:
    """The parent's handle on one zygote."""

    def __init__(self, env: dict[str, str], log_path: Path, preload: bool = FORK_AFTER_IMPORT):
        self.log_path = log_path
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "devlint.verify.launcher", str(theirs.fileno()),
                 "preload" if preload else "exec"],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                env=env, start_new_session=True,
            )
        theirs.close()
        self.env = env
        self._pending = b""
        self._events: list[dict] = []
        self.runs: set[int] = set()

    def fileno(self) -> int:
        return self.sock.fileno()

    def start(self, spec_path: str, fds: tuple[int, int], fresh: bool, timeout: float) -> int:
        """Ask for a run; returns its pid (also its process group). Waits while the zygote
        is still importing torch, at most `timeout` seconds."""
        message = json.dumps({"op": "run", "spec": spec_path, "fresh": fresh}) + "\n"
        try:
            socket.send_fds(self.sock, [message.encode()], list(fds))
        except OSError as exc:
            raise LaunchError(self.failure(f"cannot reach the launcher: {exc}")) from None
        deadline = time.monotonic() + timeout
        while True:
            for event in self._read(block=True, deadline=deadline):
                if "started" in event:
                    self.runs.add(event["started"])
                    return event["started"]
                if "error" in event:
                    raise LaunchError(event["error"])
                self._events.append(event)

    def events(self) -> list[dict]:
        """Messages that arrived, without waiting: {"exited": pid, "code": status}."""
        out = self._events + self._read(block=False)
        self._events = []
        for event in out:
            self.runs.discard(event.get("exited"))
        return out

    def _read(self, block: bool, deadline: float = 0.0) -> list[dict]:
        """Whole messages: at least one when `block` (or LaunchError), else what is there."""
        out = self._take()
        while block and not out:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LaunchError("the launcher did not start the run in time "
                                  "(importing torch took longer than --timeout)")
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(_MESSAGE_LIMIT)
            except socket.timeout:
                continue
            if not data:
                raise LaunchError(self.failure("the launcher exited"))
            self._pending += data
            out = self._take()
        if block:
            return out
        self.sock.setblocking(False)
        while True:
            try:
                data = self.sock.recv(_MESSAGE_LIMIT)
            except (BlockingIOError, InterruptedError):
                return out + self._take()
            if not data:
                return out + self._take() + [{"launcher_gone": True}]
            self._pending += data

    def _take(self) -> list[dict]:
        *lines, self._pending = self._pending.split(b"\n")
        return [json.loads(line) for line in lines if line.strip()]

    def failure(self, what: str) -> str:
        try:
            tail = self.log_path.read_bytes()[-2000:].decode("utf-8", "replace").strip()
        except OSError:
            tail = ""
        return what + (f": {tail.splitlines()[-1]}" if tail else "")

    def close(self) -> None:
        """Stop every run and everything they started; never raises."""
        try:
            self.sock.setblocking(True)
            self.sock.sendall(b'{"op": "stop"}\n')
        except OSError:
            pass
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            # The zygote is stuck: kill what is known to belong to the runs, then it.
            for pid in list(self.runs) + [self.process.pid]:
                kill_group(pid, signal.SIGKILL)
            self.process.wait()
        self.sock.close()


def kill_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def prctl(option: int, value: int) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


# -- the zygote ---------------------------------------------------------------------------------
class _Stop(BaseException):
    """A signal (the parent died, or someone stopped the zygote): kill everything, exit."""


def _stop(signum, frame):
    raise _Stop()


def serve(fd: int, preload: bool) -> None:
    parent = os.getppid()
    sock = socket.socket(fileno=fd)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    runs: set[int] = set()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _stop)
    try:
        if os.getppid() != parent:  # the parent died before PR_SET_PDEATHSIG took effect
            raise _Stop()
        if preload:
            _preload(sock)
        _loop(sock, runs)
    except _Stop:
        pass
    finally:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        kill_descendants(runs)
        _real_exit(0)


def _preload(sock: socket.socket) -> None:
    import importlib

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            if name == "torch":
                _send(sock, {"error": f"cannot import torch: {exc}"})
                raise _Stop() from None
        except Exception:
            _send(sock, {"error": f"importing {name} failed:\n{traceback.format_exc()[-2000:]}"})
            raise _Stop() from None


def _loop(sock: socket.socket, runs: set[int]) -> None:
    import select

    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    pending = b""
    while True:
        readable, _, _ = select.select([sock, wake_r], [], [])
        if wake_r in readable:
            try:
                while os.read(wake_r, 512):
                    pass
            except BlockingIOError:
                pass
            _reap(sock, runs)
        if sock not in readable:
            continue
        data, fds, _, _ = socket.recv_fds(sock, _MESSAGE_LIMIT, 8)
        if not data:
            return  # the parent closed its end
        pending += data
        *lines, pending = pending.split(b"\n")
        for line in lines:
            message = json.loads(line)
            if message["op"] == "stop":
                return
            child_fds, fds = fds[:2], fds[2:]
            pid = _fork_run(message, child_fds, (sock.fileno(), wake_r, wake_w))
            runs.add(pid)
            _send(sock, {"started": pid})
        _reap(sock, runs)


def _fork_run(message: dict, fds: list[int], inherited: tuple[int, ...]) -> int:
    pid = os.fork()
    if pid == 0:
        _run_child(message, fds, inherited)
    try:
        os.setpgid(pid, pid)  # also done by the child: whichever runs first wins the race
    except OSError:
        pass
    for fd in fds:
        os.close(fd)
    return pid


def _run_child(message: dict, fds: list[int], inherited: tuple[int, ...]) -> None:
    """In the forked child; never returns."""
    try:
        os.setpgid(0, 0)
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        for target, fd in zip((1, 2), fds):
            os.dup2(fd, target)
        for fd in (*fds, *inherited):
            os.close(fd)
        if message.get("fresh"):
            os.execv(sys.executable, [sys.executable, "-m", "devlint.verify.child",
                                      message["spec"]])
        from devlint.verify import child

        child.main(["child", message["spec"]])
    except BaseException:
        traceback.print_exc()
    finally:
        _real_exit(70)


def _reap(sock: socket.socket, runs: set[int]) -> None:
    """Report runs that ended; kill what is left in their process group (DataLoader workers
    of a run that ended with os._exit) while the run's pid cannot be reused yet."""
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None:
            return
        pid = info.si_pid
        if pid in runs:
            kill_group(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        if pid in runs:
            runs.discard(pid)
            _send(sock, {"exited": pid, "code": os.waitstatus_to_exitcode(status)})


def _send(sock: socket.socket, message: dict) -> None:
    try:
        sock.sendall(json.dumps(message).encode() + b"\n")
    except OSError:
        pass


def kill_descendants(runs: set[int], rounds: int = 200) -> None:
    """SIGKILL every run's group, then every child of this process, until none is left:
    killing one re-parents its own children here (we are their subreaper)."""
    for pid in runs:
        kill_group(pid, signal.SIGKILL)
    for _ in range(rounds):
        children = child_pids(os.getpid())
        for pid in children:
            if _pgid(pid) == pid:
                kill_group(pid, signal.SIGKILL)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _reap_all()
        if not _has_children():
            return
        time.sleep(0.01)


def _pgid(pid: int) -> Optional[int]:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def _reap_all() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _has_children() -> bool:
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def child_pids(parent: int) -> list[int]:
    """Live children of `parent`, from /proc (empty where there is none)."""
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent and fields[0] not in (b"Z", b"X"):
            found.append(int(entry))
    return found


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2] == "preload")
