"""`devlint bench`: where a GPU starts to pay, on a built-in sweep or the user's script."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from devlint import hints
from devlint.cli.common import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, EXIT_INTERRUPTED, error, write_plot_or_fail


def add_bench_parser(sub) -> None:
    bench = sub.add_parser(
        "bench", help="measure where a GPU speeds training up: a built-in sweep, or your script",
        usage="devlint bench [SCRIPT] [options] [-- SCRIPT_ARGS...]",
    )
    bench.add_argument("script", nargs="?",
                       help="a training script to time instead of the built-in sweep")
    bench.add_argument("--devices", help="comma-separated: cpu, cuda, mps (default: every one "
                       "present; a script runs on cpu and cuda)")
    bench.add_argument("--budget", type=float, default=60.0, metavar="SECONDS",
                       help="time for the whole sweep (default 60); larger points are skipped "
                            "when they would not fit")
    bench.add_argument("--max-steps", type=int, default=50,
                       help="with SCRIPT: stop it after N optimizer steps (default 50)")
    bench.add_argument("--json", action="store_true", help="print the results as JSON")
    bench.add_argument("--plot", metavar="PATH.png",
                       help="write step time vs FLOPs per device and the transfer share")
    bench.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def run_bench(args: argparse.Namespace, script_args: list[str]) -> int:
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        error(f"devlint bench needs torch, which is not installed: {hints.TORCH}")
        return EXIT_ERROR
    if args.budget <= 0:
        error("--budget must be positive")
        return EXIT_ERROR
    from devlint.bench.progress import Progress

    progress = Progress(sys.stderr, quiet=args.quiet)
    try:
        if args.script:
            return _bench_script(args, script_args, progress)
        return _bench_sweep(args, progress)
    except KeyboardInterrupt:
        progress.finish()
        error("interrupted")
        return EXIT_INTERRUPTED


def _bench_sweep(args: argparse.Namespace, progress) -> int:
    import torch

    from devlint.bench.report import render_json, render_text, write_plot
    from devlint.bench.sweep import KNOWN, available_devices, run_sweep
    from devlint.verify.spec import parse_devices

    present = available_devices(torch)
    try:
        devices = parse_devices(args.devices, known=KNOWN) if args.devices else present
    except ValueError as exc:
        error(f"--devices: {exc}")
        return EXIT_ERROR
    missing = [d for d in devices if d not in present]
    if missing:
        error(f"--devices: {missing[0]} is not available on this machine "
              f"(present: {', '.join(present)})")
        return EXIT_ERROR
    result = run_sweep(devices, args.budget, torch, progress=progress.update)
    progress.finish()
    sys.stdout.write(render_json(result) if args.json else render_text(result))
    return write_plot_or_fail(args.plot, lambda: write_plot(result, args.plot), progress.line)


def _bench_script(args: argparse.Namespace, script_args: list[str], progress) -> int:
    from devlint.bench.script import bench_script, render_json, render_text, write_plot
    from devlint.verify.session import VerifyUsageError, cuda_present
    from devlint.verify.spec import CPU, CUDA, parse_devices

    devices = [CPU, CUDA] if cuda_present() else [CPU]
    if args.devices:
        try:
            devices = parse_devices(args.devices, known=(CPU, CUDA))
        except ValueError as exc:
            error(f"--devices: {exc}; a script is timed on cpu and cuda (mps: the built-in sweep)")
            return EXIT_ERROR
        if CUDA in devices and not cuda_present():
            error("--devices: cuda is not available on this machine")
            return EXIT_ERROR
    try:
        result = bench_script(Path(args.script), script_args, devices, args.budget,
                              args.max_steps, progress.line)
    except VerifyUsageError as exc:
        error(str(exc))
        return EXIT_ERROR
    sys.stdout.write(render_json(result) if args.json else render_text(result))

    if write_plot_or_fail(args.plot, lambda: write_plot(result, args.plot),
                          progress.line) != EXIT_CLEAN:
        return EXIT_ERROR
    return EXIT_FINDINGS if result.crashed else EXIT_CLEAN
