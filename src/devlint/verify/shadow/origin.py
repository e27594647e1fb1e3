"""Where a CPU tensor was created, so a device-mismatch error can point at the user's line.

The failing call is often deep inside a library (nn.Linear, cross_entropy); the line that
matters is the one that made the CPU tensor. Sites are kept per tensor object in a
WeakTensorKeyDictionary, so they die with the tensor.
"""
from __future__ import annotations

import os
import sys
import sysconfig
from dataclasses import dataclass

import torch
from torch.utils.weak import WeakTensorKeyDictionary

import devlint

_USER, _LIBRARY, _OTHER = 0, 1, 2


@dataclass(frozen=True)
class Site:
    path: str
    line: int
    function: str

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "function": self.function}


class OriginBook:
    """Creation sites of CPU tensors, and the frame classification they need."""

    def __init__(self, user_root: str):
        self.user_root = os.path.join(os.path.abspath(user_root), "")
        self._sites = WeakTensorKeyDictionary()
        self._kind_of_code: dict = {}
        # Stdlib frames (runpy, threading) make useless fallbacks: treat them as library.
        self._library_roots = tuple(
            os.path.join(os.path.dirname(os.path.abspath(module.__file__)), "")
            for module in (torch, devlint)
        ) + (os.path.join(sysconfig.get_paths()["stdlib"], ""),)
        self.recording = True

    def record(self, out) -> None:
        """Remember the current site for each new tensor in `out` (a tensor or a tuple)."""
        if not self.recording:
            return
        if isinstance(out, torch.Tensor):
            if out not in self._sites:
                site = self.current_site()
                if site is not None:
                    self._sites[out] = site
        elif isinstance(out, (tuple, list)):
            for item in out:
                if isinstance(item, torch.Tensor):
                    self.record(item)

    def copy(self, source, target) -> None:
        """A tensor re-wrapped by torch (Parameter(data)) keeps the site of its data."""
        site = self._sites.get(source)
        if site is not None:
            self._sites[target] = site

    def site_of(self, tensor) -> Site | None:
        return self._sites.get(tensor)

    def current_site(self) -> Site | None:
        """The innermost frame under user_root, else the outermost non-library frame."""
        frame = self.user_frame(sys._getframe(1))
        return _site_of_frame(frame) if frame is not None else None

    def user_frame(self, frame):
        """From `frame` outwards: the innermost frame under user_root, else the outermost
        non-library frame, else None."""
        fallback = None
        while frame is not None:
            kind = self._kind(frame.f_code)
            if kind == _USER:
                return frame
            if kind == _OTHER:
                fallback = frame
            frame = frame.f_back
        return fallback

    def _kind(self, code) -> int:
        kind = self._kind_of_code.get(code)
        if kind is None:
            kind = self._classify(code.co_filename)
            self._kind_of_code[code] = kind
        return kind

    def _classify(self, filename: str) -> int:
        if filename.startswith("<"):
            return _LIBRARY
        path = os.path.abspath(filename)
        # Library first: a project's own .venv (torch inside it) often sits under user_root.
        if path.startswith(self._library_roots):
            return _LIBRARY
        if path.startswith(self.user_root):
            return _USER
        return _OTHER


def _site_of_frame(frame) -> Site:
    return Site(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
