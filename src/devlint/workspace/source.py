"""Reading a checked file: once, a regular file or a pipe the user named, never more than
`MAX_SOURCE_BYTES`.

Once, because a pipe (`devlint check /dev/stdin`, `<(cat train.py)`) gives its bytes to the
first read only: hashing it for the cache and then analysing a second, empty read passed in
silence. Only regular files and pipes, because a device such as /dev/zero never ends; the walk
never offers a FIFO (opening one waits for a writer), only a user who names one.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

# What a run may hold of one file. 45 times the largest file of the torch package (1.4 MB); what
# is parsed is bounded apart from this, by what the parser can afford.
MAX_SOURCE_BYTES = 64 * 1024 * 1024


class ReadError(Exception):
    """Why a file cannot be checked, as the tail of one error line."""


def read_source(path: Path) -> bytes:
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise ReadError("cannot read: a directory")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        raise ReadError("cannot read: not a regular file (a device or a socket)")
    try:
        with open(path, "rb") as handle:
            return read_bounded(handle)
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None


def read_bounded(stream: BinaryIO) -> bytes:
    data = stream.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise ReadError(f"larger than {MAX_SOURCE_BYTES >> 20} MiB; not checked")
    return data
