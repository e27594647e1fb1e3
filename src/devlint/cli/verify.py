"""`devlint verify`: run a training script on every device and compare the losses."""
from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from pathlib import Path
from typing import Iterator

from devlint.cli.common import EXIT_CLEAN, EXIT_ERROR, EXIT_INTERRUPTED, error, write_plot_or_fail
from devlint.verify.spec import DEFAULT_TIMEOUT_S, HEARTBEAT_S


def add_verify_parser(sub) -> None:
    verify = sub.add_parser(
        "verify", help="run a training script on every device and compare the losses",
        usage="devlint verify (SCRIPT | -m MODULE) [options] [-- SCRIPT_ARGS...]",
        description="Exit status: 0 every device ran, matched and checked placement; 1 a run "
                    "failed or diverged; 2 usage or internal error; 3 every run passed but an "
                    "accelerator run placed nothing on its device (placement not checked); "
                    "4 every run passed but an accelerator run never ran some of the script's "
                    "device lines (PARTIAL: not checked, named in the report); "
                    "130/143/129 stopped by Ctrl-C/SIGTERM/SIGHUP.",
    )
    verify.add_argument("script", nargs="?",
                        help="the training script (or notebook), run as `python SCRIPT ARGS` would")
    verify.add_argument("-m", dest="module", metavar="MODULE",
                        help="run a module as `python -m MODULE ARGS` would")
    verify.add_argument("--devices", help="comma-separated: cpu, cuda, cuda-sim "
                        "(default: cpu plus cuda when a GPU is present, else cuda-sim)")
    verify.add_argument("--max-batches", type=int, default=8, metavar="K",
                        help="each DataLoader yields at most K batches per epoch (default 8; "
                             "0: no cap)")
    verify.add_argument("--max-epochs", type=int, default=2, metavar="E",
                        help="a loop in which a DataLoader finished E epochs ends there, and "
                             "the script goes on after it (default 2; 0: no cap)")
    verify.add_argument("--max-steps", type=int, default=50,
                        help="a loop that made N optimizer steps (or N backward() calls without "
                             "an optimizer) ends there, and the script goes on after it "
                             "(default 50)")
    verify.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S,
                        help="seconds per device before the run is stopped and where it hung "
                             f"is shown (default {DEFAULT_TIMEOUT_S:.0f})")
    verify.add_argument("--heartbeat", type=float, default=HEARTBEAT_S, metavar="S",
                        help="a progress line (the steps done, the script's current line) "
                             f"when a run makes no new step for S seconds (default "
                             f"{HEARTBEAT_S:.0f}; 0: none)")
    verify.add_argument("--seed", type=int, default=0, help="seed for random, numpy, torch")
    verify.add_argument("--strict", action="store_true",
                        help="deterministic kernels, no TF32, tighter tolerances")
    verify.add_argument("--fix", action="store_true",
                        help="apply devlint's fixes to a temporary copy and verify the copy")
    verify.add_argument("--json", action="store_true", help="print the results as JSON")
    verify.add_argument("--plot", metavar="PATH.png", help="write loss curves and step times")
    verify.add_argument("--profile", action="store_true",
                        help="per step on each accelerator: the host-device copies and the "
                             "syncs, each with its line, and advice")
    verify.add_argument("--show-output", action="store_true",
                        help="let the script's own output through (captured by default)")
    verify.add_argument("--keep-outputs", metavar="DIR",
                        help="keep the files each run wrote, in DIR/DEVICE/ (runs work in "
                             "scratch directories that are deleted otherwise)")
    verify.add_argument("--sequential", action="store_true",
                        help="run the devices one after the other even when cores allow more")
    verify.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    add_torchrun_options(verify)


# torchrun's options that verify passes through: (flag, metavar, help)
TORCHRUN_OPTIONS = (
    ("--nnodes", "N|MIN:MAX", "nodes of the job (torchrun's --nnodes; default 1)"),
    ("--node-rank", "R", "this node's rank, with --rdzv-backend static (torchrun's)"),
    ("--rdzv-backend", "NAME", "rendezvous backend: c10d (default), static, etcd (torchrun's)"),
    ("--rdzv-endpoint", "HOST:PORT", "where the nodes meet (torchrun's); the second device "
                                     "run uses PORT+1, and so on"),
    ("--rdzv-id", "ID", "the job's id, the same on every node (torchrun's)"),
    ("--rdzv-conf", "K=V,...", "rendezvous settings (torchrun's)"),
    ("--master-addr", "HOST", "with --rdzv-backend static (torchrun's)"),
    ("--master-port", "PORT", "with --rdzv-backend static (torchrun's); the second device run "
                              "uses PORT+1, and so on"),
)


def add_torchrun_options(verify) -> None:
    group = verify.add_argument_group(
        "distributed (torchrun)",
        "--nproc N runs the script on each device as `torchrun --nproc-per-node N` does, one "
        "GPU per rank (N simulated GPUs on cuda-sim, gloo standing in for nccl), and compares "
        "each rank across devices. The other options go to torchrun as they are.")
    group.add_argument("--nproc", type=int, default=0, metavar="N",
                       help="ranks per node (torchrun's --nproc-per-node)")
    for flag, metavar, text in TORCHRUN_OPTIONS:
        group.add_argument(flag, metavar=metavar, help=text)


def torchrun_arguments(args: argparse.Namespace) -> list[str]:
    """The pass-through options as torchrun takes them: `--flag=value`."""
    out = []
    for flag, _, _ in TORCHRUN_OPTIONS:
        value = getattr(args, flag[2:].replace("-", "_"))
        if value is not None:
            out.append(f"{flag}={value}")
    return out


def run_verify(args: argparse.Namespace, script_args: list[str]) -> int:
    from devlint.verify.runner import VerifyOptions
    from devlint.verify.session import VerifyUsageError, verify
    from devlint.verify.spec import parse_devices

    try:
        devices = parse_devices(args.devices) if args.devices else []
    except ValueError as exc:
        error(f"--devices: {exc}")
        return EXIT_ERROR
    options = VerifyOptions(
        script=Path(args.script) if args.script else None, module=args.module or "",
        args=script_args, devices=devices, max_steps=args.max_steps,
        max_batches=args.max_batches, max_epochs=args.max_epochs, timeout=args.timeout,
        seed=args.seed, strict=args.strict, fix=args.fix, show_output=args.show_output,
        keep_outputs=Path(args.keep_outputs) if args.keep_outputs else None,
        parallel=False if args.sequential else None,
        nproc=args.nproc, launcher_args=torchrun_arguments(args), profile=args.profile,
        heartbeat_s=args.heartbeat,
    )

    def progress(line: str) -> None:
        if not args.quiet:
            print(f"devlint verify: {line}", file=sys.stderr, flush=True)

    try:
        with stopped_by_signals():
            result = verify(options, progress)
    except VerifyUsageError as exc:
        error(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt as exc:
        partial_report(exc, "Ctrl-C", args.json)
        error("interrupted; the script's processes were stopped")
        return EXIT_INTERRUPTED
    except Terminated as exc:
        name = signal.Signals(exc.signum).name
        partial_report(exc, name, args.json)
        error(f"stopped by {name}; the script's processes were stopped")
        return 128 + exc.signum
    from devlint.verify.report import render_json, render_text, write_plot

    sys.stdout.write(render_json(result) if args.json else render_text(result))
    if write_plot_or_fail(args.plot, lambda: write_plot(result, args.plot), progress) != EXIT_CLEAN:
        return EXIT_ERROR
    return result.exit_code


def partial_report(exc: BaseException, what: str, as_json: bool) -> None:
    """What each device did before verify was stopped: the runs that finished or failed, and
    where the others were."""
    result = getattr(exc, "verification", None)
    if result is None:
        return
    from devlint.verify.report import render_json, render_text

    result.interrupted = what
    try:
        sys.stdout.write(render_json(result) if as_json else render_text(result))
        sys.stdout.flush()
    except Exception as report_error:  # the interruption itself is what must be said
        error(f"could not print the partial report: {report_error}")


class Terminated(BaseException):
    """SIGTERM or SIGHUP (a CI cancel, `timeout`, a closed terminal): unwinds like Ctrl-C, so
    the runs are stopped on the way out."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread; the launcher still dies with us
        return
    signals = (signal.SIGTERM, signal.SIGHUP)

    def stop(signum, frame):
        for sig in signals:  # a second signal must not interrupt the clean-up
            signal.signal(sig, signal.SIG_IGN)
        raise Terminated(signum)

    previous = {sig: signal.signal(sig, stop) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
