"""gitignore-style path patterns (pathspec's gitwildmatch), anchored at a directory.

`legacy` matches a file or directory of that name at any depth, `examples/buggy_*` only
`examples/` of the base directory, `*` never crosses a `/`, `build/` only directories and
`!keep.py` takes a file back, as in a .gitignore. A path outside the base never matches: a
project's patterns say nothing about files elsewhere.
"""
from __future__ import annotations

import os
from typing import Optional, Union

from pathlib import Path


class Patterns:
    """A plain class, not a dataclass: it is built on every run, warm ones included."""

    __slots__ = ("base", "lines", "_spec")

    def __init__(self, base: str = "", lines: tuple[str, ...] = ()) -> None:
        self.base = base  # an absolute directory
        self.lines = tuple(lines)
        self._spec = None

    def __repr__(self) -> str:
        return f"Patterns({self.base!r}, {self.lines!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Patterns) and (self.base, self.lines) == (other.base, other.lines)

    def __hash__(self) -> int:
        return hash((self.base, self.lines))

    def __bool__(self) -> bool:
        return bool(self.lines)

    def matches(self, path: Union[str, Path], is_dir: bool = False) -> bool:
        return self.verdict(path, is_dir) is True

    def verdict(self, path: Union[str, Path], is_dir: bool = False) -> Optional[bool]:
        """True: excluded; False: taken back by a `!pattern`; None: no pattern names it."""
        if not self.lines:
            return None
        try:
            relative = os.path.relpath(os.path.abspath(path), self.base)
        except ValueError:  # another drive
            return None
        if relative == os.curdir or relative == os.pardir or relative.startswith(os.pardir + os.sep):
            return None
        relative = relative.replace(os.sep, "/")
        return self.spec().check_file(relative + "/" if is_dir else relative).include

    def spec(self):
        if self._spec is None:
            # Imported only when some pattern exists: pathspec costs ~13 ms to import.
            import pathspec

            self._spec = pathspec.GitIgnoreSpec.from_lines(self.lines)
        return self._spec


class PatternSets:
    """Pattern sets anchored at different directories, read as one: the config's `exclude`
    (at the pyproject.toml's directory) and `--extend-exclude` (at the working directory). The
    last set that names a path decides, as a later line of a .gitignore does."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Patterns) -> None:
        self.parts = tuple(part for part in parts if part)

    def __repr__(self) -> str:
        return f"PatternSets{self.parts!r}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PatternSets) and self.parts == other.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __bool__(self) -> bool:
        return bool(self.parts)

    def matches(self, path: Union[str, Path], is_dir: bool = False) -> bool:
        return self.verdict(path, is_dir) is True

    def verdict(self, path: Union[str, Path], is_dir: bool = False) -> Optional[bool]:
        decided = None
        for part in self.parts:
            verdict = part.verdict(path, is_dir)
            if verdict is not None:
                decided = verdict
        return decided
