"""Every code devlint can report, known without importing libcst or the rules: the command line
and the configuration check `select`/`ignore` against them on every run, warm runs included.

`RULE_CODES` is tested equal to the codes of `devlint.lint.rules.ALL_RULES`. The special codes
are not rules (no check produces them) but they are reported, selected and documented alike.
"""
from __future__ import annotations

from typing import Iterable

from devlint.core.limits import (
    CANNOT_ANALYSE_CODE, CHAIN_BUDGET, FILE_CPU_SECONDS, MAX_DEPTH, MAX_SOURCE_CHARS,
)

RULE_CODES: tuple[str, ...] = tuple(f"DEV{number:03d}" for number in range(1, 23))


class SpecialCode:
    """A code the engine reports about a file rather than about its code, documented as a
    rule page is (`devlint rule DEV999`): the same class attributes as a rule, no check.
    Classes, not dataclasses, as rules are: this module is imported on every run."""

    code: str
    name: str
    fix_kind = None  # no automatic fix
    summary: str
    what: str
    silent: str
    why: str
    bad: str
    good: str
    fix: str


class CannotParse(SpecialCode):
    code = "DEV999"
    name = "cannot-parse"
    summary = "The file is not valid Python (syntax error, bad encoding, NUL bytes) or not a notebook."
    what = """
        Reported, at the place Python's own parser names, for a file that CPython refuses: a
        syntax error, bytes that do not decode in the file's encoding, NUL bytes, nesting too
        deep to analyze; and for an `.ipynb` that is not a notebook (not JSON, no list of
        cells). A file that is a Git LFS pointer (a clone made without `git lfs`, whose large
        notebooks are three lines naming their content) says so, and how to fetch it. No other
        rule runs on such a file.
    """
    silent = """
        For every file CPython compiles. Under flake8 this code is never reported: flake8
        reports syntax errors itself, as `E999`.
    """
    why = """
        A file devlint cannot read is a file it has not checked. Reporting it keeps a run from
        passing in silence: CI fails on the file instead of skipping the device bugs in it.
    """
    bad = """
        def train(:
            pass
    """
    good = """
        def train():
            pass
    """
    fix = """
        Make the file valid Python: `python -m py_compile FILE` shows the error as Python
        reports it.
    """


class CannotAnalyse(SpecialCode):
    code = CANNOT_ANALYSE_CODE
    name = "cannot-analyse"
    summary = "Valid Python that devlint cannot analyse: the file was not checked."
    what = f"""
        Reported once per file, with the reason, for a file that CPython accepts and devlint
        cannot analyse:

        - syntax that libcst, devlint's parser, does not read: `(x): int = 1`, a tab after
          spaces in an indent;
        - an expression nested or chained more than {MAX_DEPTH} levels deep;
        - chains whose parse would take too long (libcst's time grows with the square of a
          chain's length; a file's long chains may add up to {CHAIN_BUDGET:,} squared links);
        - more than {MAX_SOURCE_CHARS:,} characters in a file where a rule could fire (libcst
          needs about 0.7 GB of memory per MB of source);
        - an analysis that took over {FILE_CPU_SECONDS} s of CPU, ran out of memory, or killed
          the worker process analysing it.

        No rule runs on such a file. DEV999, by contrast, is a file Python itself refuses.
    """
    silent = """
        For every file devlint can analyse: under the limits, with syntax libcst reads. A file
        Python refuses is DEV999's, not this code's.
    """
    why = """
        A file devlint did not analyse is a file it did not check; saying so keeps a run from
        passing in silence. The limits keep one generated or adversarial file from taking a
        CI job's time or memory, and the run goes on with every other file's findings.
    """
    bad = """
        import torch

        model = torch.nn.Linear(4, 1).cuda()
        (threshold): float = 0.5
    """
    good = """
        import torch

        model = torch.nn.Linear(4, 1).cuda()  # devlint reports DEV001 here now
        threshold: float = 0.5
    """
    fix = """
        Nothing is wrong with the file as Python. To have it analysed, rewrite the line named
        (`threshold: float = 0.5`, indent with one kind of whitespace, split a very long
        chain, move generated data out of the code). To accept that it is not analysed, add
        `DEV998` to `ignore` or to the file's `per-file-ignores`; a line's `# noqa` does not
        silence it, as it does not silence DEV999. No automatic fix.
    """


PARSE_ERROR = CannotParse
CANNOT_ANALYSE = CannotAnalyse
SPECIAL_CODES: tuple[type[SpecialCode], ...] = (CANNOT_ANALYSE, PARSE_ERROR)
KNOWN_CODES: tuple[str, ...] = RULE_CODES + tuple(special.code for special in SPECIAL_CODES)

# A Git LFS pointer in place of the file (its first line, as the LFS specification writes it).
LFS_POINTER = b"version https://git-lfs.github.com/spec/"
NOT_FETCHED = "a Git LFS pointer, not the file's content (fetch it with `git lfs pull`)"


def lfs_pointer(data: bytes) -> bool:
    """Whether the bytes are a Git LFS pointer rather than the file they stand for."""
    return data.startswith(LFS_POINTER)


def unknown_codes(codes: Iterable[str]) -> list[str]:
    """The entries that are neither a known code nor a prefix of one (`DEV`, `DEV00`)."""
    return [code for code in codes if not any(known.startswith(code) for known in KNOWN_CODES)]


def describe_known() -> str:
    """For an error message: what may be selected."""
    return f"known codes: {', '.join(KNOWN_CODES)}, or a prefix of them such as DEV or DEV00"
