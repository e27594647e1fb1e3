"""`devlint check`: lint files and directories, or fix them."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from devlint.cli.common import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, error
from devlint.lint.report import RunResult
from devlint.workspace.config import Config, ConfigError, find_pyproject, load_config, parse_code_list
from devlint.workspace.discovery import PathError, iter_files


def add_check_parser(sub) -> None:
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


def _jobs(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (one per core) or more")
    return value


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
    from devlint.lint.report.text import TextStyle, render_statistics, summary

    style = TextStyle.for_stream(out, show_source=args.show_source)
    fixing = args.fix or args.diff
    try:
        if fixing:
            from devlint.lint.fix import fix_files

            fix_files(files, config.selection_for, args, lambda line: fail(result, line), result)
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
    from devlint.workspace.cache import Cache, default_directory
    from devlint.lint.runner import check_files, default_jobs
    from devlint.lint.report.text import format_block

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


def _renderer(name: str, style):
    if name == "json":
        from devlint.lint.report.json import render
    elif name == "sarif":
        from devlint.lint.report.sarif import render
    elif name == "github":
        from devlint.lint.report.github import render
    else:
        import functools

        from devlint.lint.report.text import render
        return functools.partial(render, style=style)
    return render
