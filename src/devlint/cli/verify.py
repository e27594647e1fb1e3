"""`devlint verify`: run a training script on every device and compare the losses."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from devlint.cli.common import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, EXIT_INTERRUPTED, error, write_plot_or_fail


def add_verify_parser(sub) -> None:
    verify = sub.add_parser(
        "verify", help="run a training script on every device and compare the losses",
        usage="devlint verify SCRIPT [options] [-- SCRIPT_ARGS...]",
    )
    verify.add_argument("script", help="the training script, run as `python SCRIPT ARGS` would")
    verify.add_argument("--devices", help="comma-separated: cpu, cuda, cuda-sim "
                        "(default: cpu plus cuda when a GPU is present, else cuda-sim)")
    verify.add_argument("--max-steps", type=int, default=50,
                        help="stop the script after N optimizer steps (default 50)")
    verify.add_argument("--timeout", type=float, default=600.0,
                        help="seconds per device before the run is killed (default 600)")
    verify.add_argument("--seed", type=int, default=0, help="seed for random, numpy, torch")
    verify.add_argument("--strict", action="store_true",
                        help="deterministic kernels, no TF32, tighter tolerances")
    verify.add_argument("--fix", action="store_true",
                        help="apply devlint's fixes to a temporary copy and verify the copy")
    verify.add_argument("--json", action="store_true", help="print the results as JSON")
    verify.add_argument("--plot", metavar="PATH.png", help="write loss curves and step times")
    verify.add_argument("--show-output", action="store_true",
                        help="let the script's own output through (captured by default)")
    verify.add_argument("-q", "--quiet", action="store_true", help="no progress lines")


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
        script=Path(args.script), args=script_args, devices=devices, max_steps=args.max_steps,
        timeout=args.timeout, seed=args.seed, strict=args.strict, fix=args.fix,
        show_output=args.show_output,
    )

    def progress(line: str) -> None:
        if not args.quiet:
            print(f"devlint verify: {line}", file=sys.stderr, flush=True)

    try:
        result = verify(options, progress)
    except VerifyUsageError as exc:
        error(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        error("interrupted; the script's processes were stopped")
        return EXIT_INTERRUPTED
    from devlint.verify.report import render_json, render_text, write_plot

    sys.stdout.write(render_json(result) if args.json else render_text(result))
    if write_plot_or_fail(args.plot, lambda: write_plot(result, args.plot), progress) != EXIT_CLEAN:
        return EXIT_ERROR
    return EXIT_CLEAN if result.ok else EXIT_FINDINGS
