"""Which files a run checks: the paths given, and the `.py` and `.ipynb` regular files below given
directories, minus what `exclude` and the .gitignore files leave out."""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence, Union

from devlint.workspace.patterns import Patterns

SKIPPED_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "__pycache__", "build", "dist",
        ".eggs", ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules", "site-packages",
        ".devlint_cache", ".ipynb_checkpoints",
    }
)


NOTEBOOK_SUFFIX = ".ipynb"
CHECKED_SUFFIXES = (".py", NOTEBOOK_SUFFIX)
STDIN = "-"


def is_notebook(path: Union[str, Path]) -> bool:
    """A notebook is analysed as its joined code cells and fixed cell by cell."""
    return str(path).endswith(NOTEBOOK_SUFFIX)


@dataclass(frozen=True)
class PathError:
    """A path that was asked for and cannot be checked: an error line, exit status 2."""

    path: str
    reason: str


class Skipped:
    """A file found by walking that is not a regular file (a FIFO, a socket, a device, a
    dangling symlink): reading it could hang or never end. A warning line; the run goes on."""

    __slots__ = ("path", "reason")

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = path, reason


class Exclusions:
    """What a walk leaves out. A pattern that matches a directory the user named (or one above
    it) does not exclude what is inside: `devlint check fixtures/` checks fixtures/ even when
    `exclude = ["fixtures"]`, unless `force` (pre-commit names every file it passes).
    `exclude_in`: the excludes that apply in a folder, when they differ from folder to folder
    (each file's nearest configuration has its own); else `exclude` applies everywhere."""

    def __init__(self, exclude: Optional[Patterns] = None, respect_gitignore: bool = True,
                 force: bool = False,
                 exclude_in: Optional[Callable[[str], Patterns]] = None) -> None:
        self.exclude = exclude or Patterns()
        self.respect_gitignore = respect_gitignore
        self.force = force
        self.exclude_in = exclude_in or (lambda directory: self.exclude)
        self._gitignores: dict[str, list[Patterns]] = {}

    def named_is_excluded(self, path: Path) -> bool:
        if not self.force:
            return False
        absolute = os.path.abspath(path)
        return self.exclude_in(os.path.dirname(absolute)).matches(absolute, path.is_dir())

    def active_in(self, directory: str) -> "Active":
        """The patterns that can exclude entries of `directory`. A pattern that matches the
        directory itself is dropped: only a directory the user named (or one inside it) is
        walked into while matched."""
        exclude = self.exclude_in(directory)
        exclude = exclude if exclude and not exclude.matches(directory, True) else None
        gitignores = self._gitignore_chain(directory) if self.respect_gitignore else []
        return Active(exclude, [p for p in gitignores if not p.matches(directory, True)])

    def _gitignore_chain(self, directory: str) -> list[Patterns]:
        """The .gitignore files that apply in `directory`: its own and those above it, up to
        the repository's top (with .git/info/exclude); outside a repository, only those in
        directories the walk entered."""
        if directory in self._gitignores:
            return self._gitignores[directory]
        parent = os.path.dirname(directory)
        top = os.path.exists(os.path.join(directory, ".git"))
        if top or parent == directory:
            chain = _read_ignore(directory, os.path.join(".git", "info", "exclude")) if top else []
        elif parent in self._gitignores or _inside_repository(parent):
            chain = list(self._gitignore_chain(parent))
        else:
            chain = []
        chain += _read_ignore(directory, ".gitignore")
        self._gitignores[directory] = chain
        return chain


def _inside_repository(directory: str) -> bool:
    current = directory
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return True
        parent = os.path.dirname(current)
        if parent == current:
            return False
        current = parent


def _read_ignore(directory: str, name: str) -> list[Patterns]:
    try:
        with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as handle:
            lines = tuple(handle.read().splitlines())
    except OSError:
        return []
    return [Patterns(directory, lines)] if any(l.strip() and not l.startswith("#") for l in lines) else []


def iter_files(
    paths: Sequence[str], exclusions: Optional[Exclusions] = None,
) -> Iterator[Union[Path, PathError, Skipped]]:
    """Files in a stable order, each once. What the user names is checked even when excluded
    (unless `exclusions.force`); what a walk finds is checked only when nothing excludes it."""
    exclusions = exclusions or Exclusions()
    seen: set[str] = set()
    for raw in paths:
        if raw == STDIN:
            yield Path(STDIN)
            continue
        path = Path(raw)
        try:
            is_dir, exists = path.is_dir(), path.exists() or path.is_symlink()
        except OSError as exc:  # a name longer than the system allows, a loop of links
            yield PathError(raw, exc.strerror or str(exc))
            continue
        if not exists:
            yield PathError(raw, "no such file or directory")
        elif exclusions.named_is_excluded(path):
            continue
        elif not is_dir:
            key = os.path.normcase(os.path.abspath(path))
            if key not in seen:
                seen.add(key)
                yield path
        else:
            for found in _walk(path, exclusions):
                if isinstance(found, Path):
                    key = os.path.normcase(os.path.abspath(found))
                    if key in seen:
                        continue
                    seen.add(key)
                yield found


def _walk(root: Path, exclusions: Exclusions) -> Iterator[Union[Path, PathError, Skipped]]:
    """Depth first, sorted; the files of a directory before its subdirectories. Symlinked
    directories are not entered: a link loop can never make the walk run forever."""
    stack = [root]
    while stack:
        directory = stack.pop()
        absolute = os.path.abspath(directory)
        try:
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            yield PathError(str(directory), f"cannot read the directory: {exc.strerror or exc}")
            continue
        subdirectories = []
        active = exclusions.active_in(absolute)
        for entry in entries:
            found = _classify(entry, directory, absolute, active)
            if found == "dir":
                subdirectories.append(directory / entry.name)
            elif found is not None:
                yield found
        stack.extend(reversed(subdirectories))


def _classify(entry: os.DirEntry, directory: Path, absolute: str,
              active: Active) -> Union[None, str, Path, Skipped]:
    """"dir" to walk into, a file to check, a Skipped, or None for what is not checked."""
    name = entry.name
    try:
        if entry.is_dir(follow_symlinks=False):
            if (name in SKIPPED_DIRS or name.endswith(".egg-info")
                    or os.path.exists(os.path.join(entry.path, "pyvenv.cfg"))
                    or active.excludes(os.path.join(absolute, name), True)):
                return None
            return "dir"
        if not name.endswith(CHECKED_SUFFIXES):
            return None
        if active.excludes(os.path.join(absolute, name), False):
            return None
        if entry.is_file():  # follows a symlink: a link to a regular file is checked
            return directory / name
        return Skipped(str(directory / name), _not_regular(entry))
    except OSError as exc:
        return Skipped(str(directory / name), exc.strerror or str(exc))


class Active:
    def __init__(self, exclude: Optional[Patterns], gitignores: list[Patterns]) -> None:
        self.exclude = exclude
        self.gitignores = gitignores  # from the top down: a deeper file's `!pattern` wins, as in git

    def excludes(self, path: str, is_dir: bool) -> bool:
        if self.exclude is not None and self.exclude.matches(path, is_dir):
            return True
        verdict = None
        for patterns in self.gitignores:
            verdict = _last(verdict, patterns.verdict(path, is_dir))
        return bool(verdict)


def _last(before: Optional[bool], now: Optional[bool]) -> Optional[bool]:
    return before if now is None else now


def _not_regular(entry: os.DirEntry) -> str:
    try:
        mode = os.stat(entry.path).st_mode
    except OSError:
        return "a dangling symlink"
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
    return f"{kind}, not a regular file"


def walk_skips(path: Path, root: Path, exclusions: Exclusions) -> bool:
    """Whether walking `root` would never reach the file `path`: the editor stays as quiet
    about a file as `devlint check` on the project is. A file outside `root` is not skipped."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return False
    directory = root
    for part in parts[:-1]:
        child = directory / part
        if (part in SKIPPED_DIRS or part.endswith(".egg-info") or (child / "pyvenv.cfg").exists()
                or exclusions.active_in(os.path.abspath(directory)).excludes(os.path.abspath(child), True)):
            return True
        directory = child
    return exclusions.active_in(os.path.abspath(directory)).excludes(os.path.abspath(path), False)
