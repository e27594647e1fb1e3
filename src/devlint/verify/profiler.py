"""In the child, under `verify --profile`: every copy between host and device and every call
that makes the host wait for the device, with the script's line that made it and the training
step it fell in.

The calls are wrapped where the script makes them (`Tensor.to`, `.cuda`, `.cpu`, `.item`,
`.tolist`, `float()`, a truth value, printing, `nonzero`, `masked_select`, `copy_`,
`Module.to`, `torch.cuda.synchronize`), so the same hooks serve a real GPU and cuda-sim (whose
tensors report their simulated device). The line is the innermost frame of the user's code
(OriginBook's rule), with the columns of the call, so two copies on one line stay apart. A call
made inside another wrapped call (printing a tensor reads its values) counts once, as the
outer one. On a real GPU each copy is also timed with CUDA events and each wait with the host
clock, and torch's sync debug mode reports the waits made where no wrapper sees them; on
cuda-sim nothing is timed: the report has counts and bytes only.

Kinds (what the advice is about): batch, model, from-data (a CPU tensor built from Python data,
then copied), created (built on the device from Python data), copy-back, read (.item() and
friends), print, truth, size (nonzero, masked_select), synchronize, other-sync.
Imports torch: only the child loads this module.
"""
from __future__ import annotations

import functools
import io
import linecache
import sys
import time
import tokenize
import warnings
from typing import Optional

import torch

from devlint.verify.shadow.origin import OriginBook

H2D, D2H = "h2d", "d2h"
SYNC_WARNING = "called a synchronizing CUDA operation"
_FROM_DATA = "_devlint_from_data"
_PINNED = "_devlint_pinned"
_INHERITED = object()  # an attribute the owner did not have itself


class Profiler:
    def __init__(self, recorder, user_root: str, real_gpu: bool):
        self.recorder = recorder
        self.book = OriginBook(user_root)
        self.real_gpu = real_gpu
        self.depth = 0  # inside a wrapped call: nested calls are part of it
        self.model: Optional[dict] = None  # {direction: [copies, bytes]} while a Module moves
        self.events: list[tuple] = []
        self.positions: dict = {}  # code object -> its co_positions()
        self.undo: list[tuple] = []  # (owner, name, the original)
        self.error = ""  # why the hooks could not be installed

    # -- installation -----------------------------------------------------------------------
    def install(self) -> None:
        """The hooks; a torch without one of them gets no profile (said in the report), and
        the run goes on."""
        try:
            self._install()
        except Exception as exc:
            self.uninstall()
            self.error = f"{type(exc).__name__}: {exc}"

    def _install(self) -> None:
        tensor = torch.Tensor
        self._patch(tensor, "to", self._wrap(tensor.to, self._moved_to))
        self._patch(tensor, "cuda", self._wrap(tensor.cuda, self._moved_cuda))
        self._patch(tensor, "cpu", self._wrap(tensor.cpu, _on_device("cpu()", "copy-back", D2H)))
        self._patch(tensor, "copy_", self._wrap(tensor.copy_, self._copied))
        for name, label in (("item", "item()"), ("tolist", "tolist()"),
                            ("__float__", "float()"), ("__int__", "int()")):
            self._patch(tensor, name, self._wrap(getattr(tensor, name),
                                                 _on_device(label, "read", D2H)))
        self._patch(tensor, "__bool__", self._wrap(tensor.__bool__,
                                                   _on_device("truth value", "truth", D2H)))
        for name in ("__repr__", "__format__"):
            self._patch(tensor, name, self._wrap(getattr(tensor, name),
                                                 _on_device("print/format", "print", D2H)))
        for owner in (tensor, torch):
            for name in ("nonzero", "masked_select"):
                self._patch(owner, name, self._wrap(getattr(owner, name),
                                                    _on_device(f"{name}()", "size", None)))
        self._patch(tensor, "__getitem__", self._wrap(tensor.__getitem__, _masked))
        self._patch(tensor, "pin_memory", _marking_pinned(tensor.pin_memory))
        for name in ("tensor", "as_tensor", "from_numpy"):
            self._patch(torch, name, self._from_data(getattr(torch, name)))
        for name in ("to", "cuda", "cpu"):
            self._patch(torch.nn.Module, name, self._wrap_module(getattr(torch.nn.Module, name)))
        for owner in (torch.cuda, getattr(torch, "accelerator", None)):
            if owner is not None and hasattr(owner, "synchronize"):
                self._patch(owner, "synchronize", self._wrap(
                    owner.synchronize, lambda args, kwargs: ("synchronize()", None, True,
                                                             "synchronize", None, {})))
        if self.real_gpu:
            self._watch_sync_debug_mode()

    def uninstall(self) -> None:
        while self.undo:
            owner, name, original = self.undo.pop()
            if original is _INHERITED:
                delattr(owner, name)  # torch.Tensor.item is TensorBase's again
            else:
                setattr(owner, name, original)
        if self.real_gpu and not self.error:
            torch.cuda.set_sync_debug_mode(0)

    def _patch(self, owner, name: str, replacement) -> None:
        getattr(owner, name)  # a name this torch lacks fails here, before anything changes
        self.undo.append((owner, name, owner.__dict__.get(name, _INHERITED)))
        setattr(owner, name, replacement)

    def _watch_sync_debug_mode(self) -> None:
        """torch's own detector of waits (a real GPU only): what it reports outside the
        wrapped calls is a wait the script made some other way (a boolean mask's size, a
        library's .item()). Its warnings are recorded, not printed."""
        torch.cuda.set_sync_debug_mode("warn")
        warnings.filterwarnings("always", message=f".*{SYNC_WARNING}")
        shown = warnings.showwarning
        profiler = self

        def showwarning(message, category, filename, lineno, file=None, line=None):
            if SYNC_WARNING not in str(message):
                return shown(message, category, filename, lineno, file, line)
            if not profiler.depth and profiler.model is None:  # not a wrapped call's own
                profiler.record(("sync (torch's sync debug mode)", None, True, "other-sync",
                                 None, {}), 0.0, None)
            return None

        self._patch(warnings, "showwarning", showwarning)

    # -- what a call does -------------------------------------------------------------------
    def _moved_to(self, args, kwargs):
        tensor = args[0]
        rest = args[1:]
        if rest and isinstance(rest[0], torch.Tensor):
            target = rest[0].device
            non_blocking = bool(rest[1] if len(rest) > 1 else kwargs.get("non_blocking", False))
        else:
            options = {k: v for k, v in kwargs.items() if k != "copy"}
            try:
                target, _, non_blocking, _ = torch._C._nn._parse_to(*rest[:3], **options)
            except Exception:  # the real call raises its own error
                return None
        return self._move(tensor, target, non_blocking, ".to(cpu)" if target is not None
                          and target.type == "cpu" else ".to(device)")

    def _moved_cuda(self, args, kwargs):
        non_blocking = args[2] if len(args) > 2 else kwargs.get("non_blocking", False)
        cuda = torch.device("cuda")  # noqa: DEV001 (what `.cuda()` targets)
        return self._move(args[0], cuda, bool(non_blocking), ".cuda()")

    def _copied(self, args, kwargs):
        target, source = args[0], args[1] if len(args) > 1 else kwargs.get("src")
        if not isinstance(source, torch.Tensor):
            return None
        non_blocking = args[2] if len(args) > 2 else kwargs.get("non_blocking", False)
        source_type, target_type = source.device.type, target.device.type
        if source_type == target_type:
            return None
        if source_type == "cpu":
            return ("copy_()", H2D, False, self._h2d_kind(source), source,
                    _copy_flags(source, bool(non_blocking)))
        if target_type == "cpu":
            return "copy_()", D2H, not non_blocking, "copy-back", source, {}
        return None

    def _move(self, tensor, target, non_blocking: bool, label: str):
        if target is None:
            return None
        source = tensor.device.type
        if source == target.type:
            return None
        if source == "cpu":
            return (label, H2D, False, self._h2d_kind(tensor),
                    tensor, _copy_flags(tensor, non_blocking))
        if target.type == "cpu":
            return label, D2H, not non_blocking, "copy-back", tensor, {}
        return None

    def _h2d_kind(self, tensor) -> str:
        if self.model is not None:
            return "model"
        return "from-data" if getattr(tensor, _FROM_DATA, False) else "batch"

    # -- wrappers ---------------------------------------------------------------------------
    def _wrap(self, original, describe):
        profiler = self

        @functools.wraps(original)
        def profiled(*args, **kwargs):
            if profiler.depth:
                return original(*args, **kwargs)
            what = describe(args, kwargs)
            if what is None:
                return original(*args, **kwargs)
            if profiler.model is not None and what[1] is not None:
                profiler.add_to_model(what)
                return original(*args, **kwargs)
            return profiler.observe(original, args, kwargs, what)

        return profiled

    def observe(self, original, args, kwargs, what):
        site, step = self.site(), self.step_key()
        pair = None
        if self.real_gpu and what[1] is not None:
            pair = [torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)]
            pair[0].record()
        self.depth += 1
        began = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            elapsed = time.perf_counter() - began
            self.depth -= 1
            if pair is not None:
                pair[1].record()
            self.events.append((step, site, what[:4], _bytes(what[4]), elapsed, pair, what[5]))

    def record(self, what, seconds: float, pair) -> None:
        self.events.append((self.step_key(), self.site(), what[:4], _bytes(what[4]),
                            seconds, pair, what[5]))

    def add_to_model(self, what) -> None:
        entry = self.model.setdefault(what[1], [0, 0])
        entry[0] += 1
        entry[1] += _bytes(what[4])

    def _wrap_module(self, original):
        """One event per `model.to(device)`, its parameters' and buffers' bytes summed."""
        profiler = self

        @functools.wraps(original)
        def moved(module, *args, **kwargs):
            if profiler.depth or profiler.model is not None:
                return original(module, *args, **kwargs)
            site, step = profiler.site(), profiler.step_key()
            profiler.model = {}
            began = time.perf_counter()
            try:
                return original(module, *args, **kwargs)
            finally:
                elapsed = time.perf_counter() - began
                moves, profiler.model = profiler.model, None
                if not moves:  # already there: a call that copies nothing (DEV007's loop)
                    moves = {None: [0, 0]}
                for direction, (copies, nbytes) in moves.items():
                    profiler.events.append((step, site, ("model.to()", direction, direction == D2H,
                                                         "model"), nbytes, elapsed, None,
                                            {"tensors": copies}))

        return moved

    def _from_data(self, original):
        """torch.tensor(data): on the CPU, marked (a copy of it later is a from-data copy);
        on the device, a copy from Python data itself."""
        profiler = self

        @functools.wraps(original)
        def made(*args, **kwargs):
            out = original(*args, **kwargs)
            if profiler.depth or not isinstance(out, torch.Tensor):
                return out
            if out.device.type == "cpu":
                try:
                    setattr(out, _FROM_DATA, True)
                except Exception:  # a tensor that takes no attribute: not worth a failure
                    pass
            elif not (args and isinstance(args[0], torch.Tensor)):
                profiler.record((f"torch.{original.__name__}(device=)", H2D, False, "created",
                                 out, {}), 0.0, None)
            return out

        return made

    # -- where and when ---------------------------------------------------------------------
    def step_key(self) -> int:
        """The step in progress: optimizer steps closed so far, or (before the first one)
        -1 - the provisional backward() steps closed so far."""
        recorder = self.recorder
        return len(recorder.steps) if recorder.steps else -1 - len(recorder.backward_steps)

    def site(self) -> Optional[tuple]:
        frame = self.book.user_frame(sys._getframe(2))
        if frame is None:
            return None
        code = frame.f_code
        positions = self.positions.get(code)
        if positions is None:
            positions = self.positions[code] = list(code.co_positions())
        index = frame.f_lasti // 2
        line, end_line, col, end_col = (positions[index] if 0 <= index < len(positions)
                                        else (frame.f_lineno, None, None, None))
        return (code.co_filename, frame.f_lineno, col, end_col if end_line == line else None,
                code.co_name)

    # -- the result -------------------------------------------------------------------------
    def report(self) -> dict:
        self.uninstall()  # the recorder's own reads of the losses come next: not the script's
        if self.error:
            return {"profile": {"error": self.error}}
        recorder = self.recorder
        optimizer_steps = bool(recorder.steps)
        count = len(recorder.steps) if optimizer_steps else len(recorder.backward_steps)
        if self.real_gpu:
            torch.cuda.synchronize()
        sites: dict[tuple, dict] = {}
        for step, site, what, nbytes, seconds, pair, flags in self.events:
            if step < 0:
                step = 0 if optimizer_steps else -1 - step
            index = min(step, count)  # `count`: after the last step
            if pair is not None:
                seconds = pair[0].elapsed_time(pair[1]) / 1000.0
            entry = sites.get((site, what))
            if entry is None:
                entry = sites[(site, what)] = _site_entry(site, what, count)
            entry["count"] += 1
            entry["bytes"] += nbytes
            entry["time_s"] += seconds
            entry["by_step"][index] += 1
            for flag, value in flags.items():
                entry[flag] = entry.get(flag, 0) + value
        out = sorted(sites.values(), key=lambda e: (e["path"] or "", e["line"] or 0,
                                                    e["col"] or 0))
        if not self.real_gpu:
            for entry in out:
                entry["time_s"] = None
        return {"profile": {"timed": self.real_gpu, "steps": count, "sites": out}}


def _site_entry(site, what, steps: int) -> dict:
    path, line, col, end_col, function = site or (None, None, None, None, None)
    op, direction, sync, kind = what
    return {"path": path, "line": line, "col": None if col is None else col + 1,
            "function": function, "code": _code_at(path, line, col, end_col), "op": op,
            "direction": direction, "sync": sync, "kind": kind, "count": 0, "bytes": 0,
            "time_s": 0.0, "by_step": [0] * (steps + 1)}


def _code_at(path, line, col, end_col) -> str:
    if not path or not line:
        return ""
    text = linecache.getline(path, line)
    if col is not None and end_col is not None:
        return text.encode("utf-8")[col:end_col].decode("utf-8", "replace").strip()
    return _without_comment(text).strip()


def _without_comment(text: str) -> str:
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                return text[:token.start[1]]
    except (tokenize.TokenError, SyntaxError):  # a line that does not tokenize alone
        pass
    return text


def _on_device(label: str, kind: str, direction: Optional[str]):
    """A call that reads a device tensor on the host (and waits for it), or learns its size."""
    def describe(args, kwargs):
        tensor = args[0] if args else None
        if not isinstance(tensor, torch.Tensor) or tensor.device.type == "cpu":
            return None
        return label, direction, True, kind, tensor if direction else None, {}

    return describe


def _masked(args, kwargs):
    """`x[mask]` with a boolean mask: a result whose size only the device knows."""
    index = args[1] if len(args) > 1 else None
    if not (isinstance(index, torch.Tensor) and index.dtype == torch.bool):
        return None
    if index.device.type == "cpu" and args[0].device.type == "cpu":
        return None
    return "x[mask]", None, True, "size", None, {}


def _copy_flags(tensor, non_blocking: bool) -> dict:
    """A host-to-device copy overlaps compute only from pinned memory with non_blocking."""
    pinned = bool(getattr(tensor, _PINNED, False))
    if not pinned:
        try:
            pinned = tensor.is_pinned()
        except Exception:  # no driver to ask (cuda-sim): only the mark says so
            pinned = False
    return {"blocking": int(not (pinned and non_blocking))}


def _marking_pinned(original):
    @functools.wraps(original)
    def pin_memory(tensor, *args, **kwargs):
        out = original(tensor, *args, **kwargs)
        try:
            setattr(out, _PINNED, True)
        except Exception:  # a tensor that takes no attribute stays unmarked
            pass
        return out

    return pin_memory


def _bytes(tensor) -> int:
    if not isinstance(tensor, torch.Tensor):
        return 0
    return tensor.numel() * tensor.element_size()
