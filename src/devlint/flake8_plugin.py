"""flake8 plugin: `flake8 --select DEV` reports what `devlint check` reports.

A thin adapter over `devlint.lint.analyze`. Importing this module costs nothing: flake8 loads every
installed plugin on every run, and most files it checks contain no PyTorch code, so libcst and
the rules are imported only when `devlint.lint.prefilter` says a file can hold a finding. Selection,
`# noqa`, per-file ignores and parallelism are flake8's own, as for any plugin; under flake8,
`[tool.devlint]` in pyproject.toml is not read.
"""
from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from devlint import __version__
from devlint.lint.prefilter import REQUIREMENTS, could_match

# Set once the warning is out: flake8's worker processes parse the options again.
_WARNED = "DEVLINT_FLAKE8_SHADOW_WARNED"


class DevlintChecker:
    """flake8 tree plugin (the rule codes, `code_range()`, and DEV998 for a file devlint cannot
    analyse; flake8 reports syntax errors itself as E999)."""

    name = "devlint"
    version = __version__

    @classmethod
    def parse_options(cls, options: Any) -> None:
        """`DEV` lies inside flake8's `D` namespace: `--extend-ignore D`, the usual way to turn
        off pydocstyle, drops every devlint finding too. Say so once, with the remedy."""
        _RUN_FILES.clear()  # a new run (flake8 as a library may run again in one process)
        _RUN_OUTCOMES.clear()
        _RUN_ROUTED.clear()
        if "devlint.workspace.cache" in sys.modules:  # loaded only where a file was analysed
            sys.modules["devlint.workspace.cache"].new_process_run()
        shadow = shadowing_ignore(options)
        if shadow and not os.environ.get(_WARNED):
            os.environ[_WARNED] = "1"
            print(f"devlint: warning: flake8 ignores {shadow!r}, which also drops every devlint "
                  f"finding ({code_range()}); add `extend-select = DEV` to the flake8 config "
                  "(or pass --extend-select DEV) to keep them", file=sys.stderr)
        warm_cache(options)

    def __init__(self, tree: Any, lines: Sequence[str], filename: str) -> None:
        # flake8 wants `tree` to classify this as a tree plugin; devlint parses with libcst.
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        text = "".join(self.lines)
        own = []
        if could_match(text, REQUIREMENTS):
            own = _own_findings(text, self.filename)
        from devlint.lint.runner import places

        seen = {place[1:] for f in own for place in places(f)}
        routed = [f for f in routed_to(self.filename) if (f.line, f.column, f.code) not in seen]
        for finding in own + routed:
            # devlint columns are 1-based, flake8's are 0-based.
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)


def warm_cache(options: Any) -> None:
    """One analysis per flake8 run: before flake8 hands its files to its workers, the main
    process checks them as `devlint check` does (its process pool, the importers of the files
    included) and writes the results to devlint's cache, where each worker's `run()` then
    finds its file's findings and what the importers' runs show in it. Without this, every
    worker analysed the importers of its files again, and the plugin cost about twice
    `devlint check`. Only an optimisation: anything unusual (standard input, a flake8 whose
    options differ, DEV not selected, a worker that parses the options again under `spawn`)
    leaves the workers to analyse as before."""
    import multiprocessing

    if multiprocessing.current_process().name != "MainProcess":
        return
    try:
        from flake8 import utils
        from flake8.discover_files import expand_paths
        from flake8.style_guide import Decision, DecisionEngine

        if utils.is_using_stdin(options.filenames):
            return
        if DecisionEngine(options).decision_for("DEV001") is Decision.Ignored:
            return
        names = expand_paths(paths=options.filenames, stdin_display_name=options.stdin_display_name,
                             filename_patterns=options.filename,
                             exclude=[*options.exclude, *options.extend_exclude])
        jobs = (os.cpu_count() or 1) if options.jobs.is_auto else options.jobs.n_jobs
    except Exception:  # another flake8: the workers analyse as before
        return
    files = [Path(name) for name in names if name.endswith(".py") and os.path.isfile(name)]
    if len(files) < 2:  # one file: its run in `run()` costs the same
        return
    from devlint.lint.runner import check_project
    from devlint.workspace.cache import process_cache
    from devlint.workspace.importers import context_files

    selection = _get_selection()
    cache = process_cache()
    try:
        for _ in check_project(files, lambda _: selection, cache, max(1, min(jobs, len(files))),
                               context=context_files(files)):
            pass
    except Exception:  # the workers meet it again, and report it per file as they always did
        return
    cache.save()  # for workers that start afresh (`spawn`); forked ones have it in memory


def code_range() -> str:
    """The codes the plugin reports, from the codes devlint knows: `DEV001-DEV014, DEV998`."""
    from devlint.core.codes import CANNOT_ANALYSE, RULE_CODES

    return f"{RULE_CODES[0]}-{RULE_CODES[-1]}, {CANNOT_ANALYSE.code}"


@lru_cache(maxsize=1)  # built on first use: importing Selection here would cost every flake8 run
def _get_selection():
    from devlint.core.selection import Selection

    # DEV999 would repeat flake8's E999 (and flake8 skips files that do not parse).
    return Selection(select=("DEV",), ignore=("DEV999",))


def _own_findings(text: str, filename: str) -> list:
    """The file's findings, through devlint's cache (`workspace.cache.process_cache`) when
    flake8's text is the file's on disk: a second flake8 run, or a flake8 worker after another,
    analyses only what changed. Text that is not the file's (standard input) is analysed as it
    is."""
    outcome = _through_cache(filename, text)
    if outcome is None:
        # (imported only here: libcst and the rules cost a warm worker more than its lookups)
        from devlint.lint.analyze import analyze_source

        return analyze_source(text, filename, _get_selection())
    return [f for f in outcome.findings if f.path == outcome.path]


def _through_cache(filename: str, text: Optional[str] = None):
    """The outcome of `devlint check`'s own cached run of `filename` (its findings in other
    files' code included), or None: not a file on disk, or (`text`) not what flake8 read."""
    from devlint.core.source_text import SourceError, decode_source
    from devlint.lint.runner import check_files
    from devlint.workspace.cache import process_cache

    if filename in ("stdin", "-") or not os.path.isfile(filename):
        return None
    try:
        with open(filename, "rb") as handle:
            data = handle.read()
        if text is not None and not _read_as(decode_source(data), text):
            return None
    except (OSError, SourceError):
        return None
    selection = _get_selection()
    outcome = next(check_files([Path(filename)], lambda _: selection, process_cache(),
                               sources={Path(filename): data}, same_run=True))
    return None if outcome.error is not None else outcome


def _read_as(decoded: str, text: str) -> bool:
    """Whether `text` is what flake8 reads of a file whose decoded bytes are `decoded`: flake8
    reads with universal newlines, so a file with CRLF (or CR) line ends reaches the plugin with
    `\n` ones. Its lines and columns are the same, so its cached outcome stands; comparing the
    raw text analysed every such file again on every run (44 of 1,230 sdist files, most of a
    warm run's cost)."""
    if decoded == text:
        return True
    return "\r" in decoded and decoded.replace("\r\n", "\n").replace("\r", "\n") == text


def routed_to(filename: str) -> list:
    from devlint.lint.routed import routed_to as routed

    return routed(filename, _get_selection(), _importer_outcome, _RUN_FILES, _RUN_ROUTED)


def _importer_outcome(filename: str):
    """An importer's cached run, looked up once per flake8 run: its file does not change
    during the run, and every file it imports asks for it (a third of a warm run's lookups)."""
    if filename not in _RUN_OUTCOMES:
        _RUN_OUTCOMES[filename] = _through_cache(filename)
    return _RUN_OUTCOMES[filename]


# What this flake8 run has read of the project's files (digests, where imports resolve): the
# files do not change during a run, and each file's check asks again whether every importer's
# run still holds (a fifth of the plugin's time when each read them again).
_RUN_FILES: dict = {}
_RUN_OUTCOMES: dict = {}  # importer path -> its outcome through the cache, this run
_RUN_ROUTED: dict = {}  # (importer path, selection) -> its findings in other files, this run


def shadowing_ignore(options: Any) -> str:
    """The ignored prefix shorter than `DEV` that silences devlint's codes under these flake8
    options ("D", "DE"), or "". An explicit `DEV` is the user's choice, and no warning."""
    try:
        from flake8.style_guide import Decision, DecisionEngine

        if DecisionEngine(options).decision_for("DEV001") is not Decision.Ignored:
            return ""
        ignored = tuple(options.ignore or ()) + tuple(options.extend_ignore or ())
    except Exception:  # another flake8: no warning rather than a broken flake8 run
        return ""
    if any(code.startswith("DEV") for code in ignored):
        return ""
    return next((code for code in ignored if code and "DEV".startswith(code)), "")
