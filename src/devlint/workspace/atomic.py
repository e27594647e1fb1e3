"""Replace a file whole: a temporary file in the same directory, flushed, then renamed over the
target. A crash, a full disk or Ctrl-C leaves the old file or the new one, never half of one."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def replace_file(path: Path, data: bytes, mode: Optional[int] = None, durable: bool = True) -> None:
    """`mode`: the new file's permissions; by default the old file's, or what the umask gives a
    new one (mkstemp's 0600 would lock a shared report or cache away from the rest of a team).
    `durable`: fsync before the rename, so a power cut cannot leave an empty file (a cache,
    which is computed again when lost, skips it)."""
    import tempfile  # only when something is written: a warm run never needs it

    target = Path(os.path.realpath(path))  # a symlink is written through, and stays a symlink
    if mode is None:
        mode = _mode_of(target)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            if durable:
                os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _mode_of(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
