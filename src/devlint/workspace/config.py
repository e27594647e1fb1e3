"""`[tool.devlint]` from the nearest pyproject.toml; command-line flags override it.

Each file gets the configuration of the nearest `pyproject.toml` with a `[tool.devlint]` table
in its folder or above it, as ruff does it: a sub-project's own table applies to its files
however the run reaches them (named alone, beside other files, or by a walk from the parent).
The nearest table wins whole: nothing is inherited from a table further up (a nested config
that wants its parent's settings repeats them). A `pyproject.toml` that names devlint but cannot
be read (not UTF-8, not TOML, unreadable) is an error, never skipped: skipping it would drop its
`ignore` and `select` without a word.

Every value is checked for its type and every code against the codes devlint knows: a typo must
be an error, never a selection of nothing that passes CI. Paths in `exclude` and
`per-file-ignores` are gitignore-style patterns anchored at the directory of the pyproject.toml,
so a run gives the same answer from any working directory.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from devlint.hints import did_you_mean
from devlint.core.codes import KNOWN_CODES, describe_known, unknown_codes
from devlint.core.selection import Selection
from devlint.workspace.patterns import Patterns

ALL_PREFIX = "DEV"  # what `ALL` selects: every code starts with it
KEYS = ("select", "extend-select", "ignore", "exclude", "extend-exclude", "per-file-ignores",
        "respect-gitignore", "force-exclude", "project")


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("DEV",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: Patterns = Patterns()
    per_file_ignores: tuple[tuple[Patterns, tuple[str, ...]], ...] = ()
    root: Optional[Path] = None  # the directory of the pyproject.toml it came from
    respect_gitignore: bool = True
    force_exclude: bool = False  # exclude also what the user names (pre-commit names every file)
    project: bool = True  # imports of the project's own files are followed (`lint.model.summaries`)

    def selection_for(self, path: Path) -> Selection:
        extra = tuple(code for patterns, codes in self.per_file_ignores
                      if patterns.matches(path) for code in codes)
        return Selection(self.select + self.extend_select, self.ignore + extra, self.project)


def find_pyproject(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml with a [tool.devlint] table, from `start` upwards. The file
    is parsed, not searched: `[ tool.devlint ]` and `[tool."devlint"]` are the same table."""
    current = Path(_absolute(start))
    for directory in (current, *current.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and _has_table(candidate):
            return candidate
    return None


def _absolute(path: Path) -> str:
    # Not resolve(): patterns are matched against paths as the user sees them, symlinks kept.
    return os.path.abspath(path)


def _has_table(path: Path) -> bool:
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return True  # it may hold [tool.devlint]: load_config says why it cannot be read
    if "devlint" not in text:
        return False  # cheap: most projects never name devlint, and the TOML parser costs 3 MB
    try:
        return "devlint" in _toml(text, path).get("tool", {})
    except ConfigError:
        return True  # it names devlint and is broken: load_config says how


def _toml(text: str, where: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.9/3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"cannot read {where}: {exc}") from None


def load_config(pyproject: Optional[Path]) -> Config:
    if pyproject is None:
        return Config()
    try:
        text = pyproject.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read {pyproject}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read {pyproject}: it is not UTF-8 text (byte "
                          f"{exc.object[exc.start]:#04x} at offset {exc.start}); TOML files are "
                          "UTF-8") from None
    if text.startswith("\ufeff"):
        raise ConfigError(f"cannot read {pyproject}: it starts with a byte order mark (BOM), "
                          "which TOML does not allow; save it as UTF-8 without one")
    table = _toml(text, pyproject).get("tool", {}).get("devlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.devlint] must be a table")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ConfigError(f"{pyproject}: unknown [tool.devlint] keys: {', '.join(unknown)}"
                          f"{did_you_mean(unknown[0], KEYS)} (known: {', '.join(KEYS)})")
    root = pyproject.parent
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError(f"{pyproject}: per-file-ignores must be a table of pattern = [codes]")
    where = f"{pyproject}: "
    return Config(
        select=codes(table.get("select", ["DEV"]), where + "select", required=True),
        extend_select=codes(table.get("extend-select", []), where + "extend-select"),
        ignore=codes(table.get("ignore", []), where + "ignore"),
        exclude=Patterns(str(root), strings(table.get("exclude", []), where + "exclude")
                         + strings(table.get("extend-exclude", []), where + "extend-exclude")),
        per_file_ignores=tuple(
            (Patterns(str(root), (pattern,)), codes(value, f"{where}per-file-ignores {pattern!r}"))
            for pattern, value in pfi.items()
        ),
        root=root,
        respect_gitignore=flag(table.get("respect-gitignore", True), where + "respect-gitignore"),
        force_exclude=flag(table.get("force-exclude", False), where + "force-exclude"),
        project=flag(table.get("project", True), where + "project"),
    )


class Resolver:
    """Each file's configuration: the nearest `pyproject.toml` with a `[tool.devlint]` table
    in the file's folder or above it (`find_pyproject`), loaded once, with `override` (the
    command line's flags) applied to every one. Raises ConfigError for a table that does not
    load, naming the file."""

    def __init__(self, override: Callable[[Config], Config] = lambda config: config) -> None:
        self.override = override
        self._nearest: dict[str, Optional[Path]] = {}  # folder -> its nearest pyproject.toml
        self._loaded: dict[Optional[Path], Config] = {}

    def pyproject_of(self, directory: str) -> Optional[Path]:
        """The nearest pyproject.toml with a [tool.devlint] table from `directory` upwards;
        each folder on the way is looked at once per resolver."""
        directory = _absolute(Path(directory))
        walked = []
        found: Optional[Path] = None
        current = directory
        while True:
            if current in self._nearest:
                found = self._nearest[current]
                break
            walked.append(current)
            candidate = Path(current) / "pyproject.toml"
            try:
                here = candidate.is_file()
            except OSError:  # a path longer than the system takes: the walk says so itself
                here = False
            if here and _has_table(candidate):
                found = candidate
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        for folder in walked:
            self._nearest[folder] = found
        return found

    def in_directory(self, directory: str) -> Config:
        pyproject = self.pyproject_of(directory)
        if pyproject not in self._loaded:
            self._loaded[pyproject] = self.override(load_config(pyproject))
        return self._loaded[pyproject]

    def config_for(self, path: Path) -> Config:
        return self.in_directory(os.path.dirname(_absolute(path)))

    def selection_for(self, path: Path) -> Selection:
        return self.config_for(path).selection_for(path)

    def exclude_in(self, directory: str) -> Patterns:
        """The excludes that apply to the entries of `directory` (its nearest config's)."""
        return self.in_directory(directory).exclude


def strings(value, what: str) -> tuple[str, ...]:
    """A list of strings; one string is a list of one (`exclude = "legacy"`)."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{what} must be a list of strings, not {_kind(value)}")
    return tuple(v.strip() for v in value if v.strip())


def codes(value, what: str, required: bool = False) -> tuple[str, ...]:
    """Rule codes or prefixes, each one known: a typo is an error, never an empty selection.
    `required`: a selection, which selects nothing when empty. `ALL` (ruff's word) is every
    code, the prefix `DEV`."""
    found = tuple(ALL_PREFIX if code.upper() == "ALL" else code.upper()
                  for code in strings(value, what))
    unknown = unknown_codes(found)
    if unknown:
        raise ConfigError(f"{what}: unknown code or prefix {', '.join(map(repr, unknown))}"
                          f"{did_you_mean(unknown[0], KNOWN_CODES + ('ALL',))}; {describe_known()}, or ALL")
    if required and not found:
        raise ConfigError(f"{what} is empty: it selects no code")
    return found


def flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{what} must be true or false, not {_kind(value)}")
    return value


def _kind(value) -> str:
    return {int: "a number", float: "a number", dict: "a table", bool: "a boolean"}.get(
        type(value), f"{type(value).__name__} {value!r}")


def parse_code_list(text: str, required: bool = False) -> tuple[str, ...]:
    """`--ignore DEV001,DEV002`; an unknown code is a usage error (argparse: exit 2)."""
    import argparse

    try:
        return codes(text.split(","), "the list", required)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_selection(text: str) -> tuple[str, ...]:
    """`--select`, `--extend-select`: an empty list would select nothing."""
    return parse_code_list(text, required=True)
