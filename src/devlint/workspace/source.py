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
        # O_NONBLOCK: opening a FIFO never waits here; a regular file ignores the flag.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            _bound(info.st_size)
            return _read_all(fd, info.st_size)
        if stat.S_ISDIR(info.st_mode):
            raise ReadError("cannot read: a directory")
        if not stat.S_ISFIFO(info.st_mode):
            raise ReadError("cannot read: not a regular file (a device or a socket)")
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    # A pipe the user named (/dev/stdin, <(...)): read as cat would, waiting for its writer.
    try:
        with open(path, "rb") as handle:
            return read_bounded(handle)
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None


def _read_all(fd: int, size: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, max(size, 1 << 16))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        _bound(sum(map(len, chunks)))  # a file that grows while it is read


def read_bounded(stream: BinaryIO) -> bytes:
    """A stream of unknown length (a pipe, standard input), read in chunks up to the cap: one
    read of the cap's size would allocate 64 MiB for every small file."""
    chunks, size = [], 0
    while True:
        chunk = stream.read(1 << 20)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        _bound(size)
        chunks.append(chunk)


def _bound(size: int) -> None:
    if size > MAX_SOURCE_BYTES:
        raise ReadError(f"larger than {MAX_SOURCE_BYTES >> 20} MiB; not checked")


def code_without_comments(data: bytes) -> "bytes | None":
    """A Python file's bytes with every comment blanked, lines and columns kept (`x =
    torch.zeros(1) #.cuda()` names no CUDA); None where the bytes do not tokenize as Python."""
    import io
    import tokenize

    try:
        comments = [token for token in tokenize.tokenize(io.BytesIO(data).readline)
                    if token.type == tokenize.COMMENT]
        # (lines as tokenize reads them: split at b"\n" only, a BOM dropped)
        lines = [line.decode("utf-8") for line in io.BytesIO(data.removeprefix(b"\xef\xbb\xbf")).readlines()]
    except (tokenize.TokenError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    for token in comments:
        row, start = token.start
        line = lines[row - 1]
        lines[row - 1] = line[:start] + " " * (token.end[1] - start) + line[token.end[1]:]
    return "".join(lines).encode("utf-8")
