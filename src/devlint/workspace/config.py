"""`[tool.devlint]` from the nearest pyproject.toml; command-line flags override it."""
from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from devlint.lint.selection import Selection


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("DEV",)
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: Optional[Path] = None  # the directory of the pyproject.toml it came from

    def selection_for(self, path: Path) -> Selection:
        extra = tuple(code for pattern, codes in self.per_file_ignores
                      if self._matches(path, pattern) for code in codes)
        return Selection(self.select, self.ignore + extra)

    def _matches(self, path: Path, pattern: str) -> bool:
        candidates = [path.as_posix(), path.name]
        if self.root is not None:
            try:
                candidates.append(path.resolve().relative_to(self.root.resolve()).as_posix())
            except ValueError:
                pass
        return any(fnmatch.fnmatch(c, pattern) for c in candidates)


def find_pyproject(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml with a [tool.devlint] table, from `start` upwards."""
    current = start.resolve()
    for directory in (current, *current.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and "[tool.devlint" in _read(candidate):
            return candidate
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def load_config(pyproject: Optional[Path]) -> Config:
    if pyproject is None:
        return Config()
    # Imported only when a project configures devlint: the TOML parser weighs 3 MB of memory.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.9/3.10 only
        import tomli as tomllib
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {pyproject}: {exc}") from None
    table = data.get("tool", {}).get("devlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.devlint] must be a table")
    known = {"select", "ignore", "exclude", "extend-exclude", "per-file-ignores"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{pyproject}: unknown [tool.devlint] keys: {', '.join(unknown)}")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError(f"{pyproject}: per-file-ignores must be a table of glob = [codes]")
    return Config(
        select=_codes(table.get("select", ["DEV"]), "select", pyproject),
        ignore=_codes(table.get("ignore", []), "ignore", pyproject),
        exclude=tuple(table.get("exclude", [])) + tuple(table.get("extend-exclude", [])),
        per_file_ignores=tuple((k, _codes(v, k, pyproject)) for k, v in pfi.items()),
        root=pyproject.parent,
    )


def _codes(value, key: str, where: Path) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: {key} must be a list of rule codes")
    return tuple(v.strip().upper() for v in value if v.strip())


def parse_code_list(text: str) -> tuple[str, ...]:
    return tuple(c.strip().upper() for c in text.split(",") if c.strip())
