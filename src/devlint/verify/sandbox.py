"""Each device run writes into a layer of its own: the user's files are never written.

On Linux a run gets its own mount namespace (inside a user namespace of its own when verify
does not run as root). In it, every folder of the user's tree (the script's folder, the working
directory, the project and $HOME) is an overlay: the real folder is its read-only lower layer,
a directory of the run's scratch its upper layer. The kernel sends every write there: the
script's, a C extension's (sqlite3, h5py), a shell's, a DataLoader or `mp.spawn` worker's and
every torchrun rank's (they all inherit the namespace), by relative or absolute path, through
symlinks, `..` or `chdir`. Reads see the user's real files; paths are the user's own, so
`os.getcwd()` and `__file__` are what `python SCRIPT` gives. The mounts go with the run's last
process; the upper layer is what `--keep-outputs` keeps.

Where the kernel refuses (no namespaces, macOS, a scratch directory overlayfs cannot write to),
or when DEVLINT_VERIFY_ISOLATION=copy asks for it, the run works in real copies of the script's
folder and working directory under a scratch root T (`T/a/b` stands for `/a/b`), at most
DEVLINT_VERIFY_COPY_LIMIT_MB in all (a larger tree is refused, never run unprotected).
Absolute paths, $HOME and everything outside the copies are not isolated then, and
`describe()` (the report's first lines) says so.

Runs in the verify child (`isolate`) and the parent (`written`, for --keep-outputs); never
imports torch.
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import shutil
import stat
import sys
from dataclasses import asdict, dataclass, field
from typing import Iterator, Optional

OVERLAY, COPY = "overlay", "copy"
ISOLATION_ENV = "DEVLINT_VERIFY_ISOLATION"  # "copy": the fallback, even where overlays work
COPY_LIMIT_ENV = "DEVLINT_VERIFY_COPY_LIMIT_MB"
DEFAULT_COPY_LIMIT_MB = 1024
STATE_FILE = "isolation.json"  # in the run's scratch: for its torchrun ranks and --keep-outputs

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
MS_BIND, MS_REC, MS_PRIVATE = 0x1000, 0x4000, 0x40000
MNT_DETACH = 2
# Kernel file systems, not files: mounted inside an overlaid folder, they are bound back as
# they are (as is a file mounted on a file), and the report names them.
VIRTUAL = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "mqueue", "debugfs", "tracefs",
    "securityfs", "pstore", "bpf", "fusectl", "configfs", "hugetlbfs", "autofs", "binfmt_misc",
    "nsfs", "efivarfs", "rpc_pipefs"})


NO_UPPER = frozenset({"overlay", "nfs", "nfs4", "cifs", "smb3", "9p", "aufs"})


class IsolationError(RuntimeError):
    """The run cannot be isolated this way (the message says why)."""


@dataclass
class Isolation:
    """How one device run is isolated, and the mapping between its paths and the user's."""

    kind: str
    roots: list[str]  # the user's folders whose files the run cannot write
    root: str = ""  # COPY: the scratch root T; "" under OVERLAY, where paths are the user's
    reason: str = ""  # COPY: why not an overlay
    layers: list[list[str]] = field(default_factory=list)  # OVERLAY: [folder, upper layer]
    user_namespace: bool = False  # OVERLAY: inside a user namespace of its own (not root)
    passthrough: list[str] = field(default_factory=list)  # OVERLAY: mounts inside, not overlaid

    # -- naming ---------------------------------------------------------------------------------
    def of(self, original: str) -> str:
        """Where the run sees `original` (an absolute path)."""
        return self.root + os.path.abspath(original) if self.root else original

    def run_path(self, original: str) -> str:
        """Where the run finds `original`: the path itself under OVERLAY; in the copies, by
        its real folder (they are copied by it: a project reached through a symlink)."""
        if not self.root:
            return original
        if os.path.isdir(original):
            return self.of(os.path.realpath(original))
        folder, name = os.path.split(os.path.abspath(original))
        return self.of(os.path.join(os.path.realpath(folder), name))

    def original(self, path: str) -> str:
        if self.root and (path == self.root or path.startswith(self.root + os.sep)):
            return path[len(self.root):] or os.sep
        return path

    def holds(self, path: str) -> bool:
        """The run's writes to `path` go when the run ends (unless kept)."""
        path = self.original(os.path.abspath(path))
        return any(_under(path, root) for root in self.roots)

    # -- what the report says -------------------------------------------------------------------
    def describe(self) -> dict:
        """What held, and what did not: the report's first lines."""
        if self.kind == OVERLAY:
            covered = ("every write there, by any process of the run and by any path, went to "
                       "the run's own layer")
            missing = "not isolated: writes outside these folders (they land where they point)"
            if self.passthrough:
                missing += (f", and into what is mounted inside them that is not a folder of "
                            f"files ({', '.join(self.passthrough)})")
        else:
            covered = "writes by relative path or __file__ went to real copies of them"
            missing = ("NOT isolated: absolute paths (into these folders too), $HOME and "
                       "everything outside the copies")
        return {"kind": self.kind, "folders": list(self.roots), "covered": covered,
                "not_covered": missing, "reason": self.reason,
                "user_namespace": self.user_namespace}

    # -- kept between the processes of a run ----------------------------------------------------
    def save(self, directory: str) -> None:
        path = os.path.join(directory, STATE_FILE)
        with open(path + ".partial", "w", encoding="utf-8") as out:
            json.dump(asdict(self), out)
        os.replace(path + ".partial", path)

    @classmethod
    def load(cls, directory: str) -> Optional["Isolation"]:
        try:
            with open(os.path.join(directory, STATE_FILE), encoding="utf-8") as f:
                return cls(**json.load(f))
        except (OSError, ValueError, TypeError):
            return None

    # -- what the run wrote (the parent, for --keep-outputs) ------------------------------------
    def written(self, skip: frozenset = frozenset()) -> Iterator[tuple[str, str]]:
        """(where it is, the user's path) of every regular file the run created or changed,
        and of every empty directory it created that the user's tree does not have."""
        tops = ([(upper, folder) for folder, upper in self.layers] if self.kind == OVERLAY
                else [(self.of(root), root) for root in self.roots])
        for top, folder in tops:
            for directory, dirs, files in os.walk(top):
                here = os.path.normpath(os.path.join(folder, os.path.relpath(directory, top)))
                for name in files:
                    path, original = os.path.join(directory, name), os.path.join(here, name)
                    if original in skip or not _is_regular(path):
                        continue  # a whiteout (deleted), a symlink, a fifo
                    if self.kind == COPY and _unchanged_copy(path, original):
                        continue
                    yield path, original
                if directory != top and not dirs and not files and not os.path.lexists(here):
                    yield directory, here


def _is_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _unchanged_copy(path: str, original: str) -> bool:
    """A copy keeps its original's size, mtime and mode until the run writes it."""
    try:
        a, b = os.lstat(path), os.lstat(original)
    except OSError:
        return False
    return (a.st_size, a.st_mtime_ns, a.st_mode) == (b.st_size, b.st_mtime_ns, b.st_mode)


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def outermost(paths: list[str]) -> list[str]:
    """The distinct folders among `paths`, none inside another, in the order given."""
    out: list[str] = []
    for path in dict.fromkeys(os.path.realpath(p) for p in paths if p):
        if any(_under(path, kept) for kept in out):
            continue
        out = [kept for kept in out if not _under(kept, path)] + [path]
    return out


# -- choosing, in the run -----------------------------------------------------------------------
def isolate(roots: list[str], copy_roots: list[str], scratch: str, mode: str,
            copy_limit: int) -> Isolation:
    """Isolate this process and everything it will start. OVERLAY where the kernel allows it
    (unless `mode` is COPY), else copies; IsolationError when neither can be had."""
    reason = "DEVLINT_VERIFY_ISOLATION=copy" if mode == COPY else ""
    if not reason and not sys.platform.startswith("linux"):
        reason = f"no mount namespaces on {sys.platform}"
    if not reason:
        try:
            return overlay(roots, scratch, private_user=mode == "userns")
        except IsolationError as exc:
            reason = str(exc)
    return copies(copy_roots, os.path.join(scratch, "view"), copy_limit, reason,
                  skip=(scratch,))


# -- overlays in a mount namespace --------------------------------------------------------------
def overlay(roots: list[str], scratch: str, private_user: bool = False) -> Isolation:
    """Overlay each of `roots` in a new mount namespace (and a user namespace when not root,
    or when `private_user`), with upper layers under `scratch`."""
    libc = _libc()
    uid, gid = os.getuid(), os.getgid()
    private_user = private_user or uid != 0
    _call(libc.unshare(CLONE_NEWNS | (CLONE_NEWUSER if private_user else 0)),
          "unshare (a mount namespace)")
    if private_user:  # the same ids inside, so files keep their owner
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
    # nothing mounted here may reach the parent's namespace
    _call(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "making mounts private")
    mounts = _mount_table()
    roots = expand_root(roots, mounts)
    mounted: list[str] = []
    try:
        layers, passthrough = _mount_layers(libc, roots, mounts, scratch, mounted)
    except IsolationError:
        for target in reversed(mounted):
            libc.umount2(os.fsencode(target), MNT_DETACH)
        raise
    return Isolation(OVERLAY, roots, layers=layers, user_namespace=private_user,
                     passthrough=passthrough)


def _mount_layers(libc, roots: list[str], mounts: list[tuple[str, str]], scratch: str,
                  mounted: list[str]) -> tuple[list[list[str]], list[str]]:
    """Overlay each root, and each file system mounted inside one (a layer of its own);
    returns [folder, upper layer] of each, and the mounts inside that were bound back."""
    folders: list[str] = []
    binds: list[str] = []
    for root in roots:
        folders.append(root)
        for point, fstype in mounts:
            if point == root or not _under(point, root) or any(_under(point, b) for b in binds):
                continue
            if fstype in VIRTUAL or not os.path.isdir(point):
                binds.append(point)
            else:
                folders.append(point)
    folders = list(dict.fromkeys(folders))
    passthrough = list(binds)
    if any(_under(scratch, folder) for folder in folders):
        binds.append(scratch)  # the run's own results must reach the parent
    # Every directory is made, and opened, before the first mount hides it (an O_PATH handle
    # from this namespace: overlayfs refuses one from the parent's).
    handles: dict[str, int] = {}
    layers = []
    try:
        for number, folder in enumerate(folders):
            upper, work = (os.path.join(scratch, "layers", str(number), name)
                           for name in ("upper", "work"))
            os.makedirs(upper)
            os.makedirs(work)
            layers.append([folder, upper, work])
        for path in [*folders, *(p for layer in layers for p in layer[1:])]:
            handles[path] = os.open(path, os.O_PATH | os.O_DIRECTORY)
        for path in binds:
            handles[path] = os.open(path, os.O_PATH)
        for folder, upper, work in layers:
            _mount_overlay(libc, folder, f"lowerdir=/proc/self/fd/{handles[folder]},"
                                         f"upperdir=/proc/self/fd/{handles[upper]},"
                                         f"workdir=/proc/self/fd/{handles[work]}",
                           upper_fs=file_system_of(scratch, mounts))
            mounted.append(folder)
        # what must stay the real thing: /dev/shm and the like, and the run's scratch
        for path in binds:
            _call(libc.mount(f"/proc/self/fd/{handles[path]}".encode(), os.fsencode(path), None,
                             MS_BIND | MS_REC, None), f"binding {path} back")
            mounted.append(path)
    except OSError as exc:
        raise IsolationError(f"cannot set up the overlay: {exc}") from None
    finally:
        for handle in handles.values():
            os.close(handle)
    return [layer[:2] for layer in layers], passthrough


def _mount_overlay(libc, target: str, options: str, upper_fs: str) -> None:
    # redirect_dir=on lets a folder of the lower layer be renamed (EXDEV without it); user
    # namespaces may refuse it, or need userxattr
    for extra in (",redirect_dir=on", "", ",userxattr"):
        if libc.mount(b"overlay", os.fsencode(target), b"overlay", 0,
                      (options + extra).encode()) == 0:
            return
        error = ctypes.get_errno()
    hint = ""
    if upper_fs in NO_UPPER or upper_fs.startswith("fuse"):
        # a container's /tmp is often its overlayfs root
        hint = (f"; the scratch directory is on {upper_fs}, which cannot hold an upper layer: "
                f"point TMPDIR at a folder on a local disk or a volume")
    raise IsolationError(f"overlayfs refused {target}: {os.strerror(error)}{hint}")


def file_system_of(path: str, mounts: list[tuple[str, str]]) -> str:
    """The type of the file system `path` lies on (the innermost mount above it)."""
    found = ""
    for point, fstype in mounts:  # outermost first: the last match is the innermost
        if _under(path, point):
            found = fstype
    return found


def expand_root(roots: list[str], mounts: list[tuple[str, str]]) -> list[str]:
    """`/` cannot be overlaid under a running process: its folders can (not /proc, /dev...)."""
    out = []
    virtual = {point for point, fstype in mounts if fstype in VIRTUAL}
    for root in roots:
        if root != os.sep:
            out.append(root)
            continue
        for name in sorted(os.listdir(os.sep)):
            path = os.path.join(os.sep, name)
            if os.path.isdir(path) and not os.path.islink(path) and path not in virtual:
                out.append(path)
    return out


def _mount_table() -> list[tuple[str, str]]:
    """(mount point, file system type) of this namespace, outermost first."""
    out = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                fields = line.split()
                point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)),
                               fields[4])  # \040 is a space
                fstype = fields[fields.index("-") + 1]
                out.append((point, fstype))
    except (OSError, ValueError, IndexError):
        return out
    return sorted(out, key=lambda entry: entry[0].rstrip(os.sep).count(os.sep))


def _libc():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.unshare, libc.mount, libc.umount2  # noqa: B018 - all three must exist
    except (OSError, AttributeError) as exc:
        raise IsolationError(f"no unshare/mount in the C library: {exc}") from None
    return libc


def _call(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise IsolationError(f"{what} refused: {os.strerror(code)} ({errno.errorcode.get(code)})")


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError as exc:
        raise IsolationError(f"cannot write {path}: {exc.strerror}") from None


# -- the fallback: real copies ------------------------------------------------------------------
def copies(roots: list[str], root: str, limit: int, reason: str,
           skip: tuple[str, ...] = ()) -> Isolation:
    """Copy each folder to T + folder: files and folders for real (never links to the user's
    files), symlinks as symlinks that point where they pointed: into the copies when they
    pointed into a copied folder. More than `limit` bytes in all: IsolationError."""
    budget = [limit, limit]
    skipped = {os.path.realpath(path) for path in skip}
    isolation = Isolation(COPY, list(roots), root=root, reason=reason)
    try:
        for folder in roots:
            _copy_folder(folder, isolation.of(folder), isolation, budget, skipped)
    except OSError as exc:
        raise IsolationError(f"cannot copy the folders the run may write: {exc}") from None
    return isolation


def _copy_folder(source: str, destination: str, isolation: Isolation, budget: list,
                 skipped: set) -> None:
    os.makedirs(destination, exist_ok=True)
    try:
        entries = list(os.scandir(source))
    except PermissionError:
        return  # unreadable: the run could not read it either
    for entry in entries:
        target = os.path.join(destination, entry.name)
        if entry.path in skipped:
            continue
        if entry.is_symlink():
            link = os.readlink(entry.path)
            pointed = os.path.normpath(os.path.join(source, link))
            inside = any(_under(pointed, folder) for folder in isolation.roots)
            if inside and os.path.isabs(link):
                link = isolation.of(pointed)
            elif not inside and not os.path.isabs(link):
                link = pointed  # out of the copies, as it pointed
            os.symlink(link, target)
        elif entry.is_dir(follow_symlinks=False):
            _copy_folder(entry.path, target, isolation, budget, skipped)
        elif entry.is_file(follow_symlinks=False):
            budget[0] -= entry.stat(follow_symlinks=False).st_size
            if budget[0] < 0:
                raise IsolationError(
                    f"the folders to copy ({', '.join(isolation.roots)}) hold more than "
                    f"{limit_text(budget[1])}, the copy limit (raise it with {COPY_LIMIT_ENV})")
            try:
                shutil.copy2(entry.path, target)
            except PermissionError:
                continue
    shutil.copystat(source, destination)


def copy_limit(environ=os.environ) -> int:
    """The copy limit in bytes, from DEVLINT_VERIFY_COPY_LIMIT_MB (the parent's)."""
    try:
        return max(0, int(environ.get(COPY_LIMIT_ENV, DEFAULT_COPY_LIMIT_MB))) << 20
    except ValueError:
        return DEFAULT_COPY_LIMIT_MB << 20


def limit_text(limit: int) -> str:
    return f"{limit >> 20} MB"
