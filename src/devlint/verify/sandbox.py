"""Each device run works in a scratch view of the file system, so runs never see each other's
writes and the user's tree is left byte-identical.

The view lives under a scratch root T: `T/a/b` stands for `/a/b`. A directory of the view is
either a *link* (a symlink to the original, made for every entry of a directory the run has
entered) or *materialized* (a real directory whose entries are links). The run starts in
`T + cwd`, so relative paths, `..` and `__file__`-relative paths all land in the view, and
reads follow the links to the user's files. Before anything writes through the view, the path
is made private: its directories are materialized and a linked file is replaced by a copy
(or removed, when it is about to be truncated anyway). Unlinking or renaming a link only moves
the link, so deletions never reach the user's tree either.

The ranks of a torchrun run share one view, as the processes of a job share a node's disk (rank
0 saves a checkpoint, the others load it): a `shared` view takes a file lock around every change
to its layout, so that two ranks never materialize the same directory at once.

Guarded: open/io.open, os.open, mkdir/makedirs, remove/unlink, rmdir, rename/replace,
truncate, chmod, utime, link/symlink/mkfifo, shutil.rmtree and torch.save with a path.
Not guarded (README): absolute paths outside the view, writes made by C extensions that open
files themselves (h5py, sqlite3) into files or directories that already exist, and processes
the script starts (a shell's `>>`).

Runs in the verify child only; does not import torch.
"""
from __future__ import annotations

import builtins
import contextlib
import functools
import io
import os
import shutil
from typing import Callable, Iterator, Optional

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows, where verify does not run ranks
    fcntl = None

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_READ_MODES = frozenset({"r", "rb", "rt", "br", "tr"})
_real = {name: getattr(os, name) for name in (
    "open", "mkdir", "remove", "unlink", "rmdir", "rename", "replace", "truncate", "chmod",
    "utime", "link", "symlink", "mkfifo", "listdir", "readlink", "lstat")}


class View:
    """The mapping between the user's paths and the scratch view, and the copy-on-write."""

    def __init__(self, root: str, shared: bool = False):
        self.root = os.path.abspath(root)
        self.prefix = self.root + os.sep
        self.shared = shared and fcntl is not None
        self._depth = 0  # the lock is re-entered by the calls it wraps

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Held while the view's layout changes, when other processes share the view."""
        if not self.shared or self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        fd = _real["open"](self.root + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
        finally:
            os.close(fd)  # releases the lock

    # -- naming ---------------------------------------------------------------------------------
    def of(self, original: str) -> str:
        """Where the view shows `original` (an absolute path)."""
        return self.root + os.path.abspath(original)

    def original(self, path: str) -> str:
        return path[len(self.root):] or os.sep if self.holds(path) else path

    def holds(self, path: str) -> bool:
        return path == self.root or path.startswith(self.prefix)

    def inside(self, path) -> Optional[str]:
        """The absolute path of `path` when it lies in the view, else None."""
        try:
            absolute = os.path.abspath(os.fsdecode(path))
        except (TypeError, ValueError):
            return None
        return absolute if self.holds(absolute) else None

    def is_link(self, path: str) -> bool:
        """A link this view made (or moved): a symlink in the view to a path outside it."""
        try:
            target = _real["readlink"](path)
        except OSError:
            return False
        return os.path.isabs(target) and not self.holds(target)

    # -- setting up -----------------------------------------------------------------------------
    def enter(self, cwd: str) -> str:
        """Make `T + cwd` a real directory whose entries link to the user's, and return it
        (made by the first rank to enter a shared view)."""
        with self.locked():
            if not os.path.isdir(self.root):
                _real["mkdir"](self.root)
                self._populate(self.root, os.sep)
            here = self.of(cwd)
            self.materialize_parents(os.path.join(here, "x"))
        return here

    def place(self, original: str, data: bytes) -> str:
        """Put a private file at the view of `original` (the script, or its fixed copy), so
        that `__file__` and `realpath(__file__)` stay inside the view."""
        path = self.of(original)
        with self.locked():
            self.materialize_parents(path)
            if os.path.lexists(path) and not self.is_link(path) and _same_bytes(path, data):
                return path  # another rank of a shared view placed it
            if os.path.lexists(path):
                _real["unlink"](path)
            with io.FileIO(path, "w") as out:  # FileIO: never the guarded open
                out.write(data)
        return path

    # -- copy-on-write --------------------------------------------------------------------------
    def materialize_parents(self, path: str) -> None:
        """Every directory above `path`, from the root down, becomes a real one."""
        relative = path[len(self.prefix):].split(os.sep)[:-1]
        current = self.root
        for name in relative:
            current = os.path.join(current, name)
            if self.is_link(current):
                self._materialize(current)
            elif not os.path.isdir(current) or os.path.islink(current):
                return  # missing, a file, or the script's own symlink: the call fails as usual

    def _materialize(self, path: str) -> None:
        target = _real["readlink"](path)
        if not os.path.isdir(target):
            return
        _real["unlink"](path)
        _real["mkdir"](path)
        self._populate(path, target)

    def _populate(self, directory: str, target: str) -> None:
        try:
            names = _real["listdir"](target)
        except OSError:
            return
        for name in names:
            _real["symlink"](os.path.join(target, name), os.path.join(directory, name))

    def make_private(self, path: str, keep_content: bool) -> None:
        """A linked file about to be written becomes a private copy (or goes, if truncated)."""
        if not self.is_link(path):
            return
        target = _real["readlink"](path)
        if os.path.isdir(target):
            self._materialize(path)
            return
        _real["unlink"](path)
        if keep_content and os.path.exists(target):
            shutil.copy2(target, path)

    def before_write(self, path, keep_content: bool, exclusive: bool = False) -> None:
        inside = self.inside(path)
        if inside is None:
            return
        with self.locked():
            self.materialize_parents(inside)
            if not exclusive:  # open(..., 'x') on an existing file must fail as it would
                self.make_private(inside, keep_content)

    def before_entry_change(self, path) -> None:
        """Creating, removing or renaming an entry: only the directories above it matter."""
        inside = self.inside(path)
        if inside is not None:
            with self.locked():
                self.materialize_parents(inside)

    def before_tree_change(self, path) -> None:
        """rmdir/rmtree/chmod act on the entry itself: make it private first."""
        inside = self.inside(path)
        if inside is not None:
            with self.locked():
                self.materialize_parents(inside)
                self.make_private(inside, keep_content=True)

    # -- what the run wrote ---------------------------------------------------------------------
    def written(self, skip: frozenset = frozenset()):
        """(view path, original path) of every regular file the run created or changed, and
        of every directory it created that the user's tree does not have."""
        for directory, dirs, files in os.walk(self.root):
            for name in files:
                path = os.path.join(directory, name)
                if path not in skip and not os.path.islink(path) and os.path.isfile(path):
                    yield path, self.original(path)
            if directory != self.root and not dirs and not files and not os.path.lexists(
                    self.original(directory)):
                yield directory, self.original(directory)


def _same_bytes(path: str, data: bytes) -> bool:
    try:
        with io.FileIO(path, "r") as existing:
            return existing.read() == data
    except OSError:
        return False


# -- the guard ------------------------------------------------------------------------------
def install_guard(view: View) -> Callable[[], None]:
    """Patch the writing calls; returns an undo (tests)."""
    patches: list[tuple[object, str, object]] = []

    def patch(owner, name: str, replacement) -> None:
        patches.append((owner, name, getattr(owner, name)))
        setattr(owner, name, replacement)

    opener = _guarded_open(view, builtins.open)
    patch(builtins, "open", opener)
    patch(io, "open", opener)
    patch(os, "open", _guarded_os_open(view))
    for name in ("mkdir", "remove", "unlink", "symlink", "mkfifo"):
        patch(os, name, _guarded(view, _real[name], view.before_entry_change,
                                 path_index=1 if name == "symlink" else 0))
    for name in ("rename", "replace"):
        patch(os, name, _guarded_pair(view, _real[name]))
    patch(os, "link", _guarded_link(view))
    for name in ("rmdir", "chmod", "utime"):
        patch(os, name, _guarded(view, _real[name], view.before_tree_change))
    patch(os, "truncate", _guarded(
        view, _real["truncate"], lambda path: view.before_write(path, keep_content=True)))
    patch(shutil, "rmtree", _guarded(view, shutil.rmtree, view.before_tree_change))

    def undo() -> None:
        for owner, name, original in reversed(patches):
            setattr(owner, name, original)

    return undo


def guard_torch_save(view: View, torch) -> None:
    """torch.save opens a path in C++: make the path private before it does."""
    for owner in (torch, torch.serialization):
        original = owner.save

        @functools.wraps(original)
        def save(obj, f, *args, __original=original, **kwargs):
            if isinstance(f, (str, bytes, os.PathLike)):
                view.before_write(f, keep_content=False)
            return __original(obj, f, *args, **kwargs)

        owner.save = save


def _is_path(value) -> bool:
    return isinstance(value, (str, bytes, os.PathLike))


def _guarded_open(view: View, original):
    @functools.wraps(original)
    def open(file, mode="r", *args, **kwargs):
        if mode not in _READ_MODES and _is_path(file):
            view.before_write(file, keep_content="w" not in mode, exclusive="x" in mode)
        return original(file, mode, *args, **kwargs)

    return open


def _guarded_os_open(view: View):
    original = _real["open"]

    @functools.wraps(original)
    def open(path, flags, *args, **kwargs):
        if flags & _WRITE_FLAGS and kwargs.get("dir_fd") is None and _is_path(path):
            view.before_write(path, keep_content=not flags & os.O_TRUNC,
                              exclusive=bool(flags & os.O_EXCL))
        return original(path, flags, *args, **kwargs)

    return open


def _guarded(view: View, original, prepare, path_index: int = 0):
    """Calls that take a path (relative to a dir_fd when one is given: left alone)."""
    @functools.wraps(original)
    def call(*args, **kwargs):
        path = args[path_index] if len(args) > path_index else None
        if _is_path(path) and kwargs.get("dir_fd") is None:
            prepare(path)
        return original(*args, **kwargs)

    return call


def _guarded_pair(view: View, original):
    @functools.wraps(original)
    def call(src, dst, **kwargs):
        if kwargs.get("src_dir_fd") is None:
            view.before_entry_change(src)
        if kwargs.get("dst_dir_fd") is None:
            view.before_entry_change(dst)
        return original(src, dst, **kwargs)

    return call


def _guarded_link(view: View):
    original = _real["link"]

    @functools.wraps(original)
    def link(src, dst, **kwargs):
        # a hard link to a linked file would share the user's inode: copy it first
        if kwargs.get("src_dir_fd") is None:
            view.before_write(src, keep_content=True)
        if kwargs.get("dst_dir_fd") is None:
            view.before_entry_change(dst)
        return original(src, dst, **kwargs)

    return link
