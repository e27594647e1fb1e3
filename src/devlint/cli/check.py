"""`devlint check`: lint files and directories (or standard input), or fix them."""
from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path
from typing import Optional

from devlint.cli.common import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, EXIT_INTERRUPTED, detach_stdout, error
from devlint.lint.report import RunResult
from devlint.workspace.config import Config, ConfigError, Resolver, parse_code_list, parse_selection
from devlint.workspace.discovery import STDIN, Exclusions, PathError, Skipped, iter_files
from devlint.workspace.patterns import Patterns, PatternSets

FORMATS = ("text", "concise", "full", "json", "sarif", "github", "gitlab")
# ruff's names for the text format: concise is one line per finding, full adds the source line
TEXT_FORMATS = {"concise": False, "full": True}


class _Help(argparse.HelpFormatter):
    def _get_help_string(self, action: argparse.Action) -> Optional[str]:
        text = action.help or ""
        if "{unsafe_rules}" in text:
            # Named by the rule classes themselves, imported only when help is shown.
            from devlint.lint.rules import unsafe_fix_codes

            text = text.replace("{unsafe_rules}", ", ".join(unsafe_fix_codes()))
        return text


def add_check_parser(sub) -> None:
    check = sub.add_parser("check", help="lint files and directories", formatter_class=_Help)
    check.add_argument("paths", nargs="*",
                       help="files or directories (default .); - reads standard input")
    check.add_argument("--select", type=parse_selection, help="codes or prefixes to report")
    check.add_argument("--extend-select", type=parse_selection, metavar="CODES",
                       help="codes or prefixes to report besides those selected")
    check.add_argument("--ignore", type=parse_code_list, help="codes or prefixes to skip")
    check.add_argument("--exclude", type=lambda s: tuple(p for p in s.split(",") if p),
                       help="comma-separated gitignore-style patterns of files and directories "
                            "to skip, relative to the working directory (replaces the config's)")
    check.add_argument("--extend-exclude", type=lambda s: tuple(p for p in s.split(",") if p),
                       metavar="PATTERNS",
                       help="comma-separated gitignore-style patterns to skip besides the "
                            "config's exclude, relative to the working directory")
    check.add_argument("--force-exclude", action="store_true",
                       help="apply the excludes to files named on the command line too "
                            "(pre-commit names every file)")
    check.add_argument("--no-respect-gitignore", dest="respect_gitignore", action="store_false",
                       default=None, help="check files that .gitignore excludes")
    check.add_argument("--stdin-filename", metavar="PATH",
                       help="with -: the name standard input is reported under, matched "
                            "against the config and per-file-ignores")
    check.add_argument("--format", "--output-format", dest="format", choices=FORMATS,
                       default="text",
                       help="text (flake8-style; concise: the same, full: with each finding's "
                            "source line), json, sarif (code scanning), github (annotations), "
                            "gitlab (Code Quality report)")
    check.add_argument("--output-file", "-o", metavar="PATH",
                       help="write the report to PATH (replaced atomically) instead of stdout")
    check.add_argument("--statistics", action="store_true",
                       help="count the findings per code after the report")
    check.add_argument("--show-source", action="store_true",
                       help="print each finding's line with a caret under its column")
    check.add_argument("-q", "--quiet", action="store_true",
                       help="print the findings only: no summary line")
    check.add_argument("--exit-zero", action="store_true",
                       help="exit 0 even when there are findings (errors still exit 2)")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="with --fix or --diff, also apply the fixes that move code "
                            "({unsafe_rules})")
    check.add_argument("--diff", action="store_true",
                       help="print the fixes as a unified diff and change nothing")
    check.add_argument("--add-noqa", action="store_true",
                       help="add a `# noqa: CODE` to the line of every finding, so that devlint "
                            "can be adopted on existing code; a second run finds nothing")
    check.add_argument("-j", "--jobs", type=_jobs, default=0, metavar="N",
                       help="processes to check files with (default 0: one per core)")
    check.add_argument("--no-project", action="store_true",
                       help="check every file alone: imports of the project's own files stay "
                            "unknown (config: project = false)")
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


class UsageError(Exception):
    pass


class OutputError(Exception):
    """The report could not be written: stdout closed (`| head`) or a full disk."""


def fail(result: RunResult, line: str) -> None:
    """One error line: on stderr now, and in the result (it decides the exit code)."""
    result.errors.append(line)
    error(line)


def effective_config(args: argparse.Namespace, resolver=None) -> Config:
    """The configuration of the run as a whole (the cache's place, .gitignore, --force-exclude):
    the nearest one above the folder the named paths share. Each file's rules come from its own
    nearest configuration (`resolver_of`)."""
    if args.paths == [STDIN] and args.stdin_filename:
        start = Path(os.path.abspath(args.stdin_filename)).parent
    else:
        named = [os.path.abspath(p) for p in args.paths if p != STDIN] or [os.getcwd()]
        start = Path(os.path.commonpath(named))
        start = start if start.is_dir() else start.parent
    return (resolver or resolver_of(args)).in_directory(str(start))


def resolver_of(args: argparse.Namespace) -> Resolver:
    """Each file's configuration, with the command line's flags over every one of them."""
    overrides: dict = {}
    if args.select is not None:
        overrides.update(select=args.select, extend_select=())  # the command line decides
    if args.ignore is not None:
        overrides["ignore"] = args.ignore
    if args.exclude is not None:
        overrides["exclude"] = Patterns(os.getcwd(), args.exclude)
    if args.respect_gitignore is not None:
        overrides["respect_gitignore"] = args.respect_gitignore
    if args.force_exclude:
        overrides["force_exclude"] = True
    if args.no_project:
        overrides["project"] = False

    def override(config: Config) -> Config:
        changed = dict(overrides)
        if args.extend_select is not None:
            changed["extend_select"] = changed.get("extend_select", config.extend_select) + args.extend_select
        if args.extend_exclude:  # added to each file's own excludes (or to --exclude's)
            changed["exclude"] = PatternSets(changed.get("exclude", config.exclude),
                                             Patterns(os.getcwd(), args.extend_exclude))
        return Config(**{**config.__dict__, **changed}) if changed else config

    return Resolver(override)


def check_usage(args: argparse.Namespace) -> None:
    if args.paths is None or args.paths == []:
        args.paths = [STDIN] if args.stdin_filename else ["."]
    if args.stdin_filename and STDIN not in args.paths:
        raise UsageError("--stdin-filename names standard input: pass - as the path")
    if STDIN in args.paths and args.fix:
        raise UsageError("--fix rewrites files in place; for standard input use --diff")
    if args.paths.count(STDIN) > 1:
        raise UsageError("- (standard input) can be given once")
    if args.add_noqa and (args.fix or args.diff or STDIN in args.paths):
        raise UsageError("--add-noqa edits the checked files in place: not with --fix, --diff "
                         "or standard input")
    if args.format in TEXT_FORMATS:
        args.show_source = TEXT_FORMATS[args.format]
        args.format = "text"


def run_check(args: argparse.Namespace) -> int:
    try:
        check_usage(args)
        resolver = resolver_of(args)
        config = effective_config(args, resolver)
    except (UsageError, ConfigError) as exc:
        error(str(exc))
        return EXIT_ERROR
    result = RunResult()
    try:
        files, sources = discover(args, config, result, resolver)
        for path in files:  # every file's configuration loads, or the run stops here
            resolver.config_for(path)
        refuse_output_over_input(args.output_file, files)
        report = io.StringIO() if args.output_file else sys.stdout
        if args.add_noqa:
            return add_noqa(files, config, args, result, resolver)
        check_and_report(files, sources, config, args, result, report, resolver)
        if args.output_file:
            write_report(Path(args.output_file), report.getvalue())
        else:
            _flush_stdout()
    except (UsageError, ConfigError) as exc:
        error(str(exc))
        return EXIT_ERROR
    except OutputError as exc:
        error(str(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        interrupted(result)
        return EXIT_INTERRUPTED
    return exit_status(args, result)


def add_noqa(files: list[Path], config: Config, args: argparse.Namespace,
             result: RunResult, resolver: Optional[Resolver] = None) -> int:
    """`--add-noqa`: every finding's line gets its `# noqa: CODE`. Exit 0 when every finding
    is silenced, 1 when some could not be (each named on stderr), 2 on errors."""
    from devlint.lint.fix import write_fix
    from devlint.lint.noqa import add_noqa_to_files
    from devlint.lint.report.text import TextStyle, format_finding

    lint_files(files, config, args, result, io.StringIO(), TextStyle(), {},
               context_of(files, {}, config),
               selection_for=resolver.selection_for if resolver is not None else None)
    outcome = add_noqa_to_files(result.findings,
                                lambda path, before, after: write_fix(
                                    path, before, after, args, lambda line: fail(result, line),
                                    undone="no noqa added"),
                                lambda line: fail(result, line))
    for finding, reason in outcome.skipped:
        print(f"devlint: warning: no noqa added: {format_finding(finding)} ({reason})",
              file=sys.stderr)
    n = outcome.added
    emit(sys.stdout, f"Added {n} noqa directive{'s' if n != 1 else ''} to {outcome.files} "
                     f"file{'s' if outcome.files != 1 else ''}.\n")
    if result.errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if outcome.skipped else EXIT_CLEAN


def exit_status(args: argparse.Namespace, result: RunResult) -> int:
    if result.errors:
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_CLEAN
    if args.diff and result.fixed:
        return EXIT_FINDINGS
    return EXIT_FINDINGS if result.findings else EXIT_CLEAN


def interrupted(result: RunResult) -> None:
    """Ctrl-C: one line, and which files --fix had already rewritten (each one is whole)."""
    if not result.rewritten:
        error("interrupted")
        return
    n = len(result.rewritten)
    error(f"interrupted; {n} file{'s' if n != 1 else ''} had already been fixed:")
    for path in result.rewritten:
        print(f"  {path}", file=sys.stderr)


def discover(args: argparse.Namespace, config: Config, result: RunResult,
             resolver: Optional[Resolver] = None) -> tuple[list[Path], dict[Path, bytes]]:
    """The files to check, and standard input's bytes under the name it is reported as."""
    from devlint.workspace.source import ReadError, read_bounded

    exclusions = exclusions_of(config, resolver)
    files: list[Path] = []
    sources: dict[Path, bytes] = {}
    for item in iter_files(args.paths, exclusions):
        if isinstance(item, PathError):
            fail(result, f"{item.path}: {item.reason}")
        elif isinstance(item, Skipped):
            if not args.quiet:
                print(f"devlint: warning: {item.path}: {item.reason}; skipped", file=sys.stderr)
        elif str(item) == STDIN:
            name = Path(args.stdin_filename or STDIN)
            if args.stdin_filename and exclusions.named_is_excluded(name):
                continue
            try:
                sources[name] = read_bounded(sys.stdin.buffer)
            except (ReadError, OSError) as exc:
                fail(result, f"{name}: {exc}")
                continue
            _remember_lines(name, sources[name])
            files.append(name)
        else:
            files.append(item)
    return files, sources


def exclusions_of(config: Config, resolver: Optional[Resolver] = None) -> Exclusions:
    """What the walk leaves out; with `resolver`, each folder's excludes are its nearest
    configuration's."""
    return Exclusions(config.exclude, config.respect_gitignore, config.force_exclude,
                      resolver.exclude_in if resolver is not None else None)


def _remember_lines(name: Path, data: bytes) -> None:
    # --show-source and SARIF fingerprints read lines through linecache; stdin has no file.
    import linecache

    text = data.decode("utf-8", errors="replace")
    linecache.cache[str(name)] = (len(text), None, text.splitlines(keepends=True), str(name))


def refuse_output_over_input(output: Optional[str], files: list[Path]) -> None:
    """`-o train.py train.py` must never replace the source with its own report."""
    if not output:
        return
    directory = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(directory):
        raise UsageError(f"--output-file: cannot write {output}: no such directory {directory}")
    if not os.path.exists(output):
        return
    for path in files:
        try:
            if os.path.samefile(output, path):
                raise UsageError(f"--output-file: {output} is also a file being checked; "
                                 "refusing to overwrite it")
        except OSError:
            continue


def check_and_report(files: list[Path], sources: dict[Path, bytes], config: Config,
                     args: argparse.Namespace, result: RunResult, out,
                     resolver: Optional[Resolver] = None) -> None:
    from devlint.lint.report.text import TextStyle, render_statistics, summary

    style = TextStyle.for_stream(out, show_source=args.show_source)
    selection_for = resolver.selection_for if resolver is not None else config.selection_for
    fixing = args.fix or args.diff
    folding = folds(files, config)
    if fixing:
        from devlint.lint.fix import fix_files

        fix_files(files, selection_for, args, lambda line: fail(result, line), result,
                  sources)
        from devlint.workspace.importers import imports_between

        context = context_of(files, sources, config)
        if config.project and (context or imports_between(files)):
            # what the fixed files' runs show in other checked files' code (only a file with
            # an importer in the run or its project can have such findings)
            lint_files(files, config, args, result, out, style, sources, context,
                       routed_only=True, selection_for=selection_for)
    else:
        lint_files(files, config, args, result, out, style, sources,
                   context_of(files, sources, config), selection_for=selection_for,
                   hold_causes=folding)
    if folding:
        from devlint.lint.root_causes import fold

        result.findings = fold(result.findings)
        if args.format == "text" and not fixing:
            # the shared causes were held back from the stream: once each, after it
            from devlint.lint.report.text import format_block

            emit(out, "".join(format_block(f, style) for f in result.findings if f.root_cause))
    if args.format == "text" and not fixing:
        text = "" if args.quiet else summary(result)  # the findings went out as they came
    else:
        text = _renderer(args.format, style, args.quiet)(result)
    emit(out, text)
    if args.statistics:
        # machine formats stay one valid document: their counts go to stderr
        emit(out if args.format in ("text", "github") else sys.stderr, render_statistics(result))


def emit(out, text: str) -> None:
    try:
        out.write(text)
        out.flush()
    except BrokenPipeError:
        detach_stdout()
        raise OutputError("the output was closed before the report ended (broken pipe)") from None
    except OSError as exc:
        if out is sys.stdout:
            detach_stdout()
        raise OutputError(f"cannot write the report: {exc.strerror or exc}") from None


def _flush_stdout() -> None:
    emit(sys.stdout, "")


def write_report(path: Path, text: str) -> None:
    """A regular file (or a new one) is replaced atomically: a crash or a full disk leaves the
    old report, never half of one. Anything else (/dev/stdout, a pipe) is written directly."""
    from devlint.workspace.atomic import replace_file

    data = text.encode("utf-8")
    try:
        if os.path.exists(path) and not os.path.isfile(path):
            with open(path, "wb") as handle:
                handle.write(data)
        else:
            replace_file(path, data)
    except OSError as exc:
        raise OutputError(f"--output-file: cannot write {path}: {exc.strerror or exc}") from None


def folds(files: list[Path], config: Config) -> bool:
    """Whether the run reports a cause connected files share once (`lint.root_causes`): in
    project mode, over more than one file."""
    return config.project and len(files) > 1


def lint_files(files: list[Path], config: Config, args: argparse.Namespace,
               result: RunResult, out, style, sources: dict[Path, bytes],
               context: list[Path], routed_only: bool = False,
               selection_for=None, hold_causes: bool = False) -> None:
    """Findings stream to `out` in file order as they come (text format). `routed_only`:
    only the findings files' runs show in other files' code (after `--fix`, which reports
    each file's own). `hold_causes`: findings of a cause other files may share are kept out of
    the stream, for the caller to report once."""
    from devlint.workspace.cache import Cache, default_directory
    from devlint.lint.runner import check_project, default_jobs
    from devlint.lint.report.text import format_block

    cache = None
    if not args.no_cache:
        cache = Cache.open(Path(args.cache_dir) if args.cache_dir else default_directory(config.root))
    progress = Progress(0 if routed_only else len(files))
    selection_for = selection_for or config.selection_for
    for outcome in check_project(files, selection_for, cache, args.jobs or default_jobs(),
                                 sources, context):
        if outcome.routed:  # findings other files' runs showed in this file's code
            result.findings.extend(outcome.findings)
            shown = [f for f in outcome.findings if not (hold_causes and f.root_cause)]
            if args.format == "text" and not routed_only and shown:
                progress.clear()
                emit(out, "".join(format_block(f, style) for f in shown))
            continue
        if routed_only:
            continue
        progress.step()
        if outcome.error is not None:
            progress.clear()
            fail(result, outcome.error)
            continue
        result.files_checked += 1
        result.findings.extend(outcome.findings)
        shown = [f for f in outcome.findings if not (hold_causes and f.root_cause)]
        if args.format == "text" and shown:
            progress.clear()
            emit(out, "".join(format_block(f, style) for f in shown))
    progress.clear()
    if cache is not None:
        problem = cache.save()
        if problem:
            print(f"devlint: warning: {problem}", file=sys.stderr)  # the results stand


def context_of(files: list[Path], sources: dict[Path, bytes], config: Config) -> list[Path]:
    """The project files importing the checked ones that the run does not check: what their
    runs show in the checked files' code is reported (see `workspace.importers`). None for
    standard input: its importers would read the file on disk, not what was piped."""
    if not config.project or sources:
        return []
    from devlint.workspace.importers import context_files

    return context_files(files, exclusions_of(config))


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


def _renderer(name: str, style, quiet: bool):
    if name == "json":
        from devlint.lint.report.json import render
    elif name == "sarif":
        from devlint.lint.report.sarif import render
    elif name == "github":
        from devlint.lint.report.github import render
    elif name == "gitlab":
        from devlint.lint.report.gitlab import render
    else:
        import functools

        from devlint.lint.report.text import render
        return functools.partial(render, style=style, quiet=quiet)
    return render
