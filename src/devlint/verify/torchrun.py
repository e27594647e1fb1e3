"""`devlint verify --nproc N`: a device run is a torchrun job, launched by PyTorch's own launcher
(`torch.distributed.run`, what the `torchrun` command runs), with a verify child on every rank.

    verify launcher --fork--> agent: run_agent, torch.distributed.run.main(--nproc-per-node N
         (zygote)                |    --start-method fork --run-path rank.py SPEC)
                                 +-- torchrun's worker per rank: rank.py -> rank_entry
                                       +-- fork: the rank's verify child (rank_main)

A worker of a function entrypoint must hand torchrun a return value before it exits, or torchrun
waits for it forever, while a verify child ends with os._exit wherever the run ends (a signal,
a cap, the script's own os._exit). So the worker forks the child, forwards signals to it, waits,
and turns its exit status into its own: 0 returns, anything else fails the rank, which is how
torchrun learns to tear the other ranks down. The workers are spawned, never forked from the
agent: the agent runs threads (its TCPStore, its monitors), and a rank forked from it hung at
exit in about one run in ten (a lock held by one of those threads at the fork). Spawning costs
every rank its own `import torch` (about 3 s of wall time per run on 2 cores).

Runs in verify's child processes only (imports torch).
"""
from __future__ import annotations

import os
import signal
import sys
import traceback
from pathlib import Path

from devlint.verify.launcher import (
    PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, child_pids, kill_descendants,
    prctl,
)
from devlint.verify.spec import ChildSpec, rank_streams

RANK_SCRIPT = str(Path(__file__).with_name("rank.py"))
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1)
_real_exit = os._exit


def launcher_argv(spec: ChildSpec, spec_path: str) -> list[str]:
    """torchrun's command line for the run (after `torchrun`)."""
    method = "spawn"  # see the module's docstring: a rank forked from the agent can hang
    return ["--nproc-per-node", str(spec.nproc), *spec.launcher_args, "--start-method", method,
            "--run-path", RANK_SCRIPT, spec_path]


# -- the agent: torchrun itself -----------------------------------------------------------------
def run_agent(spec: ChildSpec, spec_path: str) -> None:
    """Run torchrun in this process; never returns. Exit status 0 when every rank succeeded."""
    if spec.env:  # the verification's environment; torchrun adds RANK, LOCAL_RANK, ... to it
        os.environ.clear()
        os.environ.update(spec.env)
    # What a rank leaves behind (a DataLoader worker of a rank that ended) is re-parented
    # here and killed at the end.
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGUSR1, _to_children)  # verify's "dump your stacks" before a timeout
    code = 1
    try:
        from torch.distributed import run

        run.main(launcher_argv(spec, spec_path))
        code = 0
    except SystemExit as exc:  # torchrun's own usage errors
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException:  # a rank failed (ChildFailedError), or a signal stopped torchrun
        traceback.print_exc(limit=2)
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        kill_descendants(set())
        _real_exit(code)


def _to_children(signum, frame) -> None:
    for pid in child_pids(os.getpid()):
        try:
            os.kill(pid, signum)
        except OSError:
            pass


# -- a rank -------------------------------------------------------------------------------------
def rank_entry(spec_path: str) -> None:
    """torchrun's worker for one rank: fork the rank's verify child and end as it ended."""
    pid = os.fork()
    if pid == 0:
        try:
            rank_main(spec_path)
        finally:
            _real_exit(70)

    def forward(signum, frame):
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    for sig in FORWARDED:
        signal.signal(sig, forward)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:  # fails the rank: torchrun tears down the others
        sys.exit(code if code > 0 else 128 - code)


def rank_main(spec_path: str) -> None:
    """The rank's verify child, in the process its worker forked; never returns."""
    from devlint.verify import child

    for sig in (signal.SIGHUP, signal.SIGUSR1):  # the worker's forwarding handlers
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parent = os.getppid()
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the worker is gone: so is its rank
    if os.getppid() != parent:
        _real_exit(1)
    spec = ChildSpec.read(spec_path).for_rank(int(os.environ["LOCAL_RANK"]))
    join_rank_streams(spec)
    child.run_child(spec)


def join_rank_streams(spec: ChildSpec) -> None:
    """stdout and stderr into this rank's FIFOs, which the parent reads (a tail per rank)."""
    for fd, fifo in zip((1, 2), rank_streams(spec, spec.local_rank)):
        try:
            writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # no reader (not started by verify's parent): keep the worker's
            continue
        os.set_blocking(writer, True)
        (sys.stdout if fd == 1 else sys.stderr).flush()
        os.dup2(writer, fd)
        os.close(writer)
