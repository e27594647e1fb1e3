"""Permission tests that mean the same as root (CI runs as root) and as anyone else.

Root ignores file modes: it reads a mode-0 file and writes one it has no write bit for, so a
test of what devlint does with such a file checks nothing when it runs as root.
`devlint_bound_by_modes` runs devlint as the owner of the files the test made, bound by their
modes: as itself for an ordinary user; as root, in a child that drops every capability before
it starts devlint. That child keeps uid 0, so it can still read the interpreter and the
checkout, which belong to root. Switching to user nobody cannot promise that: CI's Python often
lives under /root, and the child could not import what it had not imported before. A read-only
bind mount or `chattr +i` would stop root writing a file, but not reading one.
"""
from __future__ import annotations

import ctypes
import errno
import os
import subprocess
import sys
from pathlib import Path

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_CAPABILITY_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> None:
    """Between fork and exec: empty the bounding, inheritable and ambient sets, so the program
    exec'd next starts with no capability, root or not (at exec, root gets its bounding set
    and the inheritable one; everyone the ambient one)."""
    libc = ctypes.CDLL(None, use_errno=True)

    def check(result: int, call: str) -> None:
        if result != 0:
            raise OSError(ctypes.get_errno(), f"{call} failed")

    capability = 0
    while libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) == 0:
        capability += 1
    if ctypes.get_errno() != errno.EINVAL:  # EINVAL: past the last capability
        check(-1, "prctl(PR_CAPBSET_DROP)")
    header, data = _CapHeader(_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    check(libc.capget(ctypes.byref(header), data), "capget")
    for word in data:
        word.inheritable = 0
    check(libc.capset(ctypes.byref(header), data), "capset")
    check(libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "prctl(PR_CAP_AMBIENT)")


def devlint_bound_by_modes(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "devlint", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120,
                          preexec_fn=drop_capabilities if IS_ROOT else None)
