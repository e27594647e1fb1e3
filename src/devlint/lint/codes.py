"""Every code devlint can report, known without importing libcst or the rules: the command line
and the configuration check `select`/`ignore` against them on every run, warm runs included.

`RULE_CODES` is tested equal to the codes of `devlint.lint.rules.ALL_RULES`. The special codes
are not rules (no check produces them) but they are reported, selected and documented alike.
"""
from __future__ import annotations

from typing import Iterable

RULE_CODES: tuple[str, ...] = tuple(f"DEV{number:03d}" for number in range(1, 15))


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
        cells). No other rule runs on such a file.
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


PARSE_ERROR = CannotParse
SPECIAL_CODES: tuple[type[SpecialCode], ...] = (PARSE_ERROR,)
KNOWN_CODES: tuple[str, ...] = RULE_CODES + tuple(special.code for special in SPECIAL_CODES)


def unknown_codes(codes: Iterable[str]) -> list[str]:
    """The entries that are neither a known code nor a prefix of one (`DEV`, `DEV00`)."""
    return [code for code in codes if not any(known.startswith(code) for known in KNOWN_CODES)]


def describe_known() -> str:
    """For an error message: what may be selected."""
    return f"known codes: {', '.join(KNOWN_CODES)}, or a prefix of them such as DEV or DEV00"
