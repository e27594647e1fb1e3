"""`devlint check`, `devlint rule`, `devlint verify`. Linting never imports torch; `verify`
loads its package lazily, and only its child processes and the GPU probe import torch."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable, Optional, Sequence

from devlint import __version__
from devlint.config import Config, ConfigError, find_pyproject, load_config, parse_code_list
from devlint.discovery import PathError, is_notebook, iter_files
from devlint.report import RunResult

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="devlint", description="Find and fix PyTorch device-placement bugs."
    )
    parser.add_argument("--version", action="version", version=f"devlint {__version__}")
    sub = parser.add_subparsers(dest="command")

    check = sub.add_parser("check", help="lint files and directories")
    check.add_argument("paths", nargs="*", default=["."], help="files or directories (default .)")
    check.add_argument("--select", type=parse_code_list, help="codes or prefixes to report")
    check.add_argument("--ignore", type=parse_code_list, help="codes or prefixes to skip")
    check.add_argument("--exclude", type=lambda s: tuple(p for p in s.split(",") if p),
                       help="comma-separated globs of files and directories to skip")
    check.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text",
                       help="text (flake8-style), json, sarif (code scanning), github (annotations)")
    check.add_argument("--output-file", "-o", metavar="PATH",
                       help="write the report to PATH instead of stdout")
    check.add_argument("--statistics", action="store_true",
                       help="count the findings per code after the report")
    check.add_argument("--show-source", action="store_true",
                       help="print each finding's line with a caret under its column")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="with --fix or --diff, also apply fixes that move code (DEV003)")
    check.add_argument("--diff", action="store_true",
                       help="print the fixes as a unified diff and change nothing")
    check.add_argument("-j", "--jobs", type=_jobs, default=0, metavar="N",
                       help="processes to check files with (default 0: one per core)")
    check.add_argument("--no-cache", action="store_true",
                       help="analyze every file; neither read nor write the cache")
    check.add_argument("--cache-dir", metavar="DIR",
                       help="where results of unchanged files are kept (default: .devlint_cache "
                            "in the project root; env DEVLINT_CACHE_DIR)")

    add_verify_parser(sub)
    add_bench_parser(sub)

    rule = sub.add_parser("rule", help="explain a rule")
    rule.add_argument("code", nargs="?", help="a rule code, e.g. DEV002")
    rule.add_argument("--all", action="store_true", help="list every rule")
    return parser


def _jobs(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (one per core) or more")
    return value


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args: list[str] = []
    if argv[:1] in (["verify"], ["bench"]) and "--" in argv:
        # everything after `--` belongs to the user's script, never to devlint
        split = argv.index("--")
        argv, script_args = argv[:split], argv[split + 1:]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if args.command == "check":
        return run_check(args)
    if args.command == "rule":
        return run_rule(args)
    if args.command == "verify":
        return run_verify(args, script_args)
    if args.command == "bench":
        return run_bench(args, script_args)
    parser.print_help(sys.stderr)
    return EXIT_ERROR


def error(message: str) -> None:
    print(f"devlint: error: {message}", file=sys.stderr)


def fail(result: RunResult, line: str) -> None:
    """One error line: on stderr now, and in the result (it decides the exit code)."""
    result.errors.append(line)
    error(line)


def effective_config(args: argparse.Namespace) -> Config:
    start = Path(os.path.commonpath([os.path.abspath(p) for p in args.paths]))
    config = load_config(find_pyproject(start if start.is_dir() else start.parent))
    overrides = {}
    if args.select is not None:
        overrides["select"] = args.select
    if args.ignore is not None:
        overrides["ignore"] = args.ignore
    if args.exclude is not None:
        overrides["exclude"] = args.exclude
    return Config(**{**config.__dict__, **overrides}) if overrides else config


def run_check(args: argparse.Namespace) -> int:
    try:
        config = effective_config(args)
    except ConfigError as exc:
        error(str(exc))
        return EXIT_ERROR
    result = RunResult()
    files: list[Path] = []
    for item in iter_files(args.paths, config.exclude):
        if isinstance(item, PathError):
            fail(result, f"{item.path}: {item.reason}")
        else:
            files.append(item)
    try:
        out = open(args.output_file, "w", encoding="utf-8") if args.output_file else sys.stdout
    except OSError as exc:
        error(f"--output-file: cannot write {args.output_file}: {exc.strerror or exc}")
        return EXIT_ERROR
    from devlint.report.text import TextStyle, render_statistics, summary

    style = TextStyle.for_stream(out, show_source=args.show_source)
    fixing = args.fix or args.diff
    try:
        if fixing:
            fix_files(files, config, args, result)
        else:
            lint_files(files, config, args, result, out, style)
        if args.format == "text" and not fixing:
            out.write(summary(result))  # the findings went out as they came
        else:
            out.write(_renderer(args.format, style)(result))
        if args.statistics:
            # machine formats stay one valid document: their counts go to stderr
            (out if args.format in ("text", "github") else sys.stderr).write(render_statistics(result))
    finally:
        if out is not sys.stdout:
            out.close()
    if result.errors:
        return EXIT_ERROR
    if args.diff and result.fixed:
        return EXIT_FINDINGS
    return EXIT_FINDINGS if result.findings else EXIT_CLEAN


def lint_files(files: list[Path], config: Config, args: argparse.Namespace,
               result: RunResult, out, style) -> None:
    """Findings stream to `out` in file order as they come (text format)."""
    from devlint.cache import Cache, default_directory
    from devlint.pipeline import check_files, default_jobs
    from devlint.report.text import format_block

    cache = None
    if not args.no_cache:
        cache = Cache.open(Path(args.cache_dir) if args.cache_dir else default_directory(config.root))
    progress = Progress(len(files))
    for outcome in check_files(files, config.selection_for, cache, args.jobs or default_jobs()):
        progress.step()
        if outcome.error is not None:
            progress.clear()
            fail(result, outcome.error)
            continue
        result.files_checked += 1
        result.findings.extend(outcome.findings)
        if args.format == "text" and outcome.findings:
            progress.clear()
            out.write("".join(format_block(f, style) for f in outcome.findings))
            out.flush()
    progress.clear()
    if cache is not None:
        problem = cache.save()
        if problem:
            print(f"devlint: warning: {problem}", file=sys.stderr)  # the results stand


class Progress:
    """`checked 1200/2285 files` on stderr while a long run goes, only on a terminal."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.shown = total, 0, False
        self.enabled = total >= 200 and sys.stderr.isatty() and not os.environ.get("CI")

    def step(self) -> None:
        self.done += 1
        if self.enabled and (self.done % 25 == 0 or self.done == self.total):
            sys.stderr.write(f"\rdevlint: checked {self.done}/{self.total} files")
            sys.stderr.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False


def fix_files(files: list[Path], config: Config, args: argparse.Namespace,
              result: RunResult) -> None:
    """Fixes run in this process, one file at a time, and never use the cache: they need the
    nodes the findings point at."""
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as exc:
            fail(result, f"{path}: cannot read: {exc.strerror or exc}")
            continue
        result.files_checked += 1
        try:
            check_and_fix(path, data, config.selection_for(path), args, result)
        except Exception as exc:  # a bug in devlint must not hide the other files' findings
            fail(result, f"{path}: internal error: {type(exc).__name__}: {exc}")


def check_and_fix(path: Path, data: bytes, selection, args, result: RunResult) -> None:
    """Fix one file: only findings that `noqa` left and `--select` chose are ever fixed."""
    from devlint.engine import SourceError, analyze_bytes, analyze_source, decode_source_with_encoding
    from devlint.fix import apply_fixes

    if is_notebook(path):
        fix_notebook_file(path, data, selection, args, result)
        return
    try:
        text, encoding = decode_source_with_encoding(data)
    except SourceError:
        result.findings.extend(analyze_bytes(data, str(path), selection))
        return
    findings = analyze_source(text, str(path), selection)
    outcome = apply_fixes(text, findings, unsafe=args.unsafe_fixes)
    if outcome.error:
        fail(result, f"{path}: {outcome.error}")
    written = outcome.applied and (args.diff or write_fix(path, outcome.text.encode(encoding), args, result))
    if not written:
        result.findings.extend(findings)
        return
    remaining = analyze_source(outcome.text, str(path), selection)
    result.fixed += len(findings) - len(remaining)
    result.findings.extend(remaining)
    if args.diff:
        result.diffs.append(unified_diff(str(path), text, outcome.text))


def fix_notebook_file(path: Path, data: bytes, selection, args, result: RunResult) -> None:
    """Only the cells a fix changed are rewritten; outputs and metadata stay as they were."""
    from devlint.notebook import fix_notebook

    outcome = fix_notebook(data, str(path), selection, unsafe=args.unsafe_fixes)
    if outcome.error:
        fail(result, f"{path}: {outcome.error}")
    if outcome.data is None or not (args.diff or write_fix(path, outcome.data, args, result)):
        result.findings.extend(outcome.findings)
        return
    result.fixed += len(outcome.findings) - len(outcome.remaining)
    result.findings.extend(outcome.remaining)
    if args.diff:
        result.diffs.append(unified_diff(str(path), data.decode("utf-8-sig"),
                                         outcome.data.decode("utf-8")))


def write_fix(path: Path, data: bytes, args: argparse.Namespace, result: RunResult) -> bool:
    """Write a fixed file; a read-only file, a symlink leading out of the checked paths or a
    failed write is one error line, and the file stays as it was."""
    from devlint.fix import refuse_write, write_atomically

    reason = refuse_write(path, args.paths)
    if reason is None:
        try:
            write_atomically(path, data)
            return True
        except OSError as exc:
            reason = f"cannot write: {exc.strerror or exc}"
    fail(result, f"{path}: not fixed: {reason}")
    return False


def unified_diff(path: str, before: str, after: str) -> str:
    import difflib

    return "".join(difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=f"a/{path}", tofile=f"b/{path}",
    ))


def _renderer(name: str, style):
    if name == "json":
        from devlint.report.json import render
    elif name == "sarif":
        from devlint.report.sarif import render
    elif name == "github":
        from devlint.report.github import render
    else:
        import functools

        from devlint.report.text import render
        return functools.partial(render, style=style)
    return render


def run_rule(args: argparse.Namespace) -> int:
    from devlint.rules import ALL_RULES, RULES_BY_CODE

    if args.all or not args.code:
        for rule in ALL_RULES:
            print(f"{rule.code}  {rule.name:<28} {rule.summary}")
        return EXIT_CLEAN
    rule = RULES_BY_CODE.get(args.code.upper())
    if rule is None:
        error(f"unknown rule {args.code!r}; `devlint rule --all` lists them")
        return EXIT_ERROR
    sys.stdout.write(rule.docs())
    return EXIT_CLEAN


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
        error("devlint bench needs torch, which is not installed: pip install 'devlint[verify]'")
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
    from devlint.bench.script import bench_script, render_json, render_text
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

    def plot() -> None:
        from devlint.verify.report import write_plot
        from devlint.verify.runner import VerifyOptions
        from devlint.verify.session import Verification

        write_plot(Verification(VerifyOptions(Path(args.script)), devices=result.timed), args.plot)

    if write_plot_or_fail(args.plot, plot, progress.line) != EXIT_CLEAN:
        return EXIT_ERROR
    return EXIT_CLEAN if all(s.run.ran for s in result.timed) else EXIT_FINDINGS


def write_plot_or_fail(path: Optional[str], draw: Callable[[], None],
                       announce: Callable[[str], None]) -> int:
    """`--plot PATH` for verify and bench: draw, or one error line and exit status 2."""
    if not path:
        return EXIT_CLEAN
    try:
        draw()
    except ImportError:
        error("--plot needs matplotlib: pip install 'devlint[verify]'")
        return EXIT_ERROR
    except OSError as exc:
        error(f"--plot: cannot write {path}: {exc.strerror or exc}")
        return EXIT_ERROR
    announce(f"wrote {path}")
    return EXIT_CLEAN
