"""In the child: what one optimizer step costs and what its loss was.

A *step* ends when an optimizer steps (or a GradScaler's step, which may skip the optimizer
on overflow: counting the scaler's call keeps step counts equal across devices). Losses are
the scalars passed to `backward`, kept as detached tensors and read at the end, so recording
adds no device synchronisation inside the loop. Host-to-device copies are wrapped at
`Tensor.to`/`Tensor.cuda`; those made inside `Module._apply` are the model's, the rest are
batches. Imports torch: only the child process loads this module.
"""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import torch

from devlint.verify.loops import BACKSTOP

class StopRun(BaseException):
    """Ends the script at a cap (--max-steps, --max-epochs), or at the backstop past them for
    loops the rewrite (loops.py) cannot end. Not an Exception: `except Exception` in the user's
    loop must not swallow it."""

    def __init__(self, reason: str, limit: int = 0):
        super().__init__(reason)
        self.reason = reason  # "steps" | "epochs"
        self.limit = limit  # the backstop's count; 0: the cap itself


class Stopper:
    """Raises StopRun, and notices when the script swallowed it (a bare `except:` or `except
    BaseException:`): any hook that runs after the stop was raised calls `on_swallowed`,
    which ends the run without unwinding (the child writes its result and exits)."""

    def __init__(self) -> None:
        self.raised: Optional[StopRun] = None
        self.caught = False  # by the child itself: the normal end
        self.on_swallowed: Callable[[StopRun], None] = lambda stop: None

    def stop(self, reason: str, limit: int = 0) -> None:
        self.check()
        self.raised = StopRun(reason, limit)
        raise self.raised

    def check(self) -> None:
        if self.raised is not None and not self.caught:
            self.on_swallowed(self.raised)


@dataclass
class Tally:
    """Host-to-device copies within one step (or before the first)."""

    batch_bytes: int = 0
    batch_time: float = 0.0
    model_bytes: int = 0
    model_time: float = 0.0
    copies: int = 0
    pending: list = field(default_factory=list)  # (start_event, end_event, is_model) on CUDA

    def add(self, nbytes: int, seconds: float, is_model: bool) -> None:
        self.copies += 1
        if is_model:
            self.model_bytes += nbytes
            self.model_time += seconds
        else:
            self.batch_bytes += nbytes
            self.batch_time += seconds

    def merge(self, other: "Tally") -> None:
        self.batch_bytes += other.batch_bytes
        self.batch_time += other.batch_time
        self.model_bytes += other.model_bytes
        self.model_time += other.model_time
        self.copies += other.copies
        self.pending += other.pending

    def resolve_events(self) -> None:
        for start, end, is_model in self.pending:
            self.add(0, start.elapsed_time(end) / 1000.0, is_model)
            self.copies -= 1  # counted when the copy was made
        self.pending.clear()

    def as_dict(self) -> dict:
        return {
            "batch_bytes": self.batch_bytes,
            "batch_time_s": self.batch_time,
            "model_bytes": self.model_bytes,
            "model_time_s": self.model_time,
            "copies": self.copies,
        }


@dataclass
class Step:
    losses: list  # detached tensors until `finish`, floats after
    wall: float
    tally: Tally
    event: Any = None  # CUDA event recorded at the step's end


class Clock:
    """Wall time on the host; on a real GPU, copy time from CUDA events (copies are async)."""

    def __init__(self, use_cuda_events: bool):
        self.use_cuda_events = use_cuda_events

    def event(self):
        if not self.use_cuda_events:
            return None
        ev = torch.cuda.Event(enable_timing=True)
        ev.record()
        return ev


class Recorder:
    """Steps are optimizer steps. Until the first one, every backward() closes a provisional
    step: a loop that updates its parameters by hand never calls an optimizer, and ends
    after --max-steps backward calls; the first optimizer step folds the provisional steps
    into itself (gradient accumulation before it). With `loops` (the verify child), reaching
    --max-steps ends the script's loops that made the steps (loops.py) and the run goes on;
    the run stops only at the backstop. Without, the run stops at the cap."""

    def __init__(self, max_steps: int, use_cuda_events: bool = False,
                 stopper: Optional[Stopper] = None, loops=None):
        self.max_steps = max_steps
        self.loops = loops
        self.stopper = stopper or Stopper()
        self.clock = Clock(use_cuda_events)
        self.steps: list[Step] = []
        self.backward_steps: list[Step] = []
        self.setup = Tally()  # copies before the first step: usually the model's one move
        self.tally = self.setup
        self.pending_losses: list = []
        self.last_boundary = time.perf_counter()
        self.first_event = None
        self.model_depth = 0
        self.backward_depth = 0
        self.scaler_depth = 0
        self.scaled: dict[int, tuple] = {}
        self.device_rng = False
        self.mixed_precision = False
        self.undo: list[Callable[[], None]] = []
        self.on_step: Optional[Callable[[int], None]] = None  # the heartbeat's step count
        self.iterations: list[tuple[int, int]] = []  # (a loader's dataset id, steps before it)

    # -- installation ---------------------------------------------------------------------
    def install(self, watch_device_rng: bool = False) -> None:
        self._patch(torch.Tensor, "to", self._wrap_copy(torch.Tensor.to, self._to_target))
        self._patch(torch.Tensor, "cuda", self._wrap_copy(torch.Tensor.cuda, _cuda_target))
        self._patch(torch.nn.Module, "_apply", self._wrap_model_apply(torch.nn.Module._apply))
        self._patch(torch.Tensor, "backward", self._wrap_backward(torch.Tensor.backward))
        self._patch(torch.autograd, "backward", self._wrap_backward(torch.autograd.backward))
        self._patch_grad_scaler()
        self._patch_autocast()
        self._patch_loader_iter()
        from torch.optim.optimizer import register_optimizer_step_post_hook

        handle = register_optimizer_step_post_hook(self._optimizer_stepped)
        self.undo.append(handle.remove)
        if watch_device_rng:
            self._watch_device_rng()
        self.first_event = self.clock.event()
        self.last_boundary = time.perf_counter()

    def uninstall(self) -> None:
        while self.undo:
            self.undo.pop()()

    def _patch_loader_iter(self) -> None:
        """Each pass over a DataLoader, and how many steps came before it: the training
        loader's passes are the epochs (the plot marks where each began)."""
        loader = torch.utils.data.DataLoader
        original = loader.__iter__
        iterations = self.iterations

        def __iter__(self_):
            iterations.append((id(self_.dataset), len(self.steps)))
            return original(self_)
        self._patch(loader, "__iter__", __iter__)

    def epoch_starts(self) -> list[int]:
        """The steps done when each epoch of the training loader began: the loader in whose
        passes most steps were made (a validation loader's passes make none)."""
        made: dict[int, int] = {}
        ends = [steps for _, steps in self.iterations[1:]] + [len(self.steps)]
        for (key, start), end in zip(self.iterations, ends):
            made[key] = made.get(key, 0) + end - start
        if not made or not max(made.values()):
            return []
        training = max(made, key=made.get)
        return [start for key, start in self.iterations if key == training]

    def _patch(self, owner, name: str, replacement) -> None:
        original = owner.__dict__.get(name, getattr(owner, name))
        setattr(owner, name, replacement)
        self.undo.append(lambda: setattr(owner, name, original))

    # -- steps ----------------------------------------------------------------------------
    def _optimizer_stepped(self, optimizer, args, kwargs) -> None:
        if self.scaler_depth:
            return  # the GradScaler's step call is the boundary
        self.end_step()

    def end_step(self) -> None:
        self.stopper.check()
        step = self._close_step()
        if not self.steps and self.backward_steps:
            step = self._fold(self.backward_steps + [step])
            self.backward_steps = []
        self.steps.append(step)
        if self.on_step is not None:
            self.on_step(len(self.steps))
        self._counted(len(self.steps))

    def _counted(self, steps: int) -> None:
        """A step closed: at the cap the loops that made it end; at the backstop the run."""
        if self.loops is None:
            if steps >= self.max_steps:
                self.stopper.stop("steps")
            return
        self.loops.step()
        if steps >= self.max_steps:
            self.loops.cap("steps")
        if steps >= BACKSTOP * self.max_steps:
            self.stopper.stop("steps", steps)

    def _close_step(self) -> Step:
        now = time.perf_counter()
        step = Step(self.pending_losses, now - self.last_boundary, self.tally, self.clock.event())
        self.pending_losses = []
        self.tally = Tally()
        self.last_boundary = time.perf_counter()
        return step

    @staticmethod
    def _fold(steps: list[Step]) -> Step:
        first = steps[0]
        for later in steps[1:]:
            first.losses += later.losses
            first.wall += later.wall
            first.tally.merge(later.tally)
        first.event = steps[-1].event
        return first

    def backward_done(self) -> None:
        """A backward() returned: before any optimizer step, it closes a provisional step."""
        if self.steps or self.backward_depth > 1:
            return
        self.backward_steps.append(self._close_step())
        self._counted(len(self.backward_steps))

    @property
    def step_kind(self) -> str:
        return "backward" if not self.steps and self.backward_steps else "optimizer"

    def record_loss(self, tensor) -> None:
        if self.backward_depth > 1 or not isinstance(tensor, torch.Tensor):
            return
        if tensor.numel() != 1:
            return
        kept = self.scaled.pop(id(tensor), None)
        self.pending_losses.append((kept[1] if kept else tensor).detach())

    # -- wrappers -------------------------------------------------------------------------
    def _wrap_copy(self, original, target_of):
        recorder = self

        @functools.wraps(original)
        def copy(tensor, *args, **kwargs):
            target = target_of(args, kwargs)
            if target is None or target.type == "cpu" or tensor.device.type != "cpu":
                return original(tensor, *args, **kwargs)
            return recorder._timed_copy(original, tensor, args, kwargs)

        return copy

    def _timed_copy(self, original, tensor, args, kwargs):
        nbytes = tensor.numel() * tensor.element_size()
        is_model = self.model_depth > 0
        start = self.clock.event()
        began = time.perf_counter()
        out = original(tensor, *args, **kwargs)
        if start is None:
            self.tally.add(nbytes, time.perf_counter() - began, is_model)
        else:
            self.tally.add(nbytes, 0.0, is_model)
            self.tally.pending.append((start, self.clock.event(), is_model))
        return out

    @staticmethod
    def _to_target(args, kwargs):
        try:
            return torch._C._nn._parse_to(*args, **kwargs)[0]
        except Exception:  # let the real call raise its own error
            return None

    def _wrap_model_apply(self, original):
        recorder = self

        @functools.wraps(original)
        def _apply(module, *args, **kwargs):
            recorder.model_depth += 1
            try:
                return original(module, *args, **kwargs)
            finally:
                recorder.model_depth -= 1

        return _apply

    def _wrap_backward(self, original):
        recorder = self

        @functools.wraps(original)
        def backward(tensors, *args, **kwargs):
            recorder.stopper.check()
            recorder.backward_depth += 1
            try:
                for tensor in tensors if isinstance(tensors, (list, tuple)) else (tensors,):
                    recorder.record_loss(tensor)
                result = original(tensors, *args, **kwargs)
                recorder.backward_done()
                return result
            finally:
                recorder.backward_depth -= 1

        return backward

    def _patch_grad_scaler(self) -> None:
        scaler_cls = getattr(getattr(torch, "amp", None), "GradScaler", None)
        if scaler_cls is None:
            return
        recorder = self
        original_scale, original_step = scaler_cls.scale, scaler_cls.step

        @functools.wraps(original_scale)
        def scale(scaler, outputs):
            scaled = original_scale(scaler, outputs)
            if isinstance(outputs, torch.Tensor) and scaled is not outputs:
                # backward sees loss * 65536: remember the loss it stands for
                recorder.scaled[id(scaled)] = (scaled, outputs)
            return scaled

        @functools.wraps(original_step)
        def step(scaler, optimizer, *args, **kwargs):
            recorder.scaler_depth += 1
            try:
                result = original_step(scaler, optimizer, *args, **kwargs)
            finally:
                recorder.scaler_depth -= 1
            recorder.scaled.clear()
            recorder.end_step()
            return result

        self._patch(scaler_cls, "scale", scale)
        self._patch(scaler_cls, "step", step)

    def _patch_autocast(self) -> None:
        recorder = self
        original_enter = torch.autocast.__enter__

        @functools.wraps(original_enter)
        def __enter__(ctx):
            result = original_enter(ctx)
            if getattr(ctx, "_enabled", False) and ctx.fast_dtype in (torch.float16, torch.bfloat16):
                recorder.mixed_precision = True
            return result

        self._patch(torch.autocast, "__enter__", __enter__)

    def _watch_device_rng(self) -> None:
        """On a real GPU random ops draw from Philox, not the CPU generator: a run that uses
        them cannot match the CPU run step for step, and must say so rather than 'diverged'."""
        for name in ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
                     "feature_alpha_dropout"):
            if hasattr(torch.nn.functional, name):
                self._patch(torch.nn.functional, name,
                            self._flag_rng(getattr(torch.nn.functional, name), _dropout_on_device))
        for name in ("rand", "randn", "randint", "randperm", "normal"):
            self._patch(torch, name, self._flag_rng(getattr(torch, name), _factory_on_device))
        for name in ("rand_like", "randn_like", "randint_like", "bernoulli", "multinomial"):
            self._patch(torch, name, self._flag_rng(getattr(torch, name), _input_on_device))

    def _flag_rng(self, original, on_device: Callable[..., bool]):
        recorder = self

        @functools.wraps(original)
        def random_op(*args, **kwargs):
            if not recorder.device_rng and on_device(args, kwargs):
                recorder.device_rng = True
            return original(*args, **kwargs)

        return random_op

    # -- results --------------------------------------------------------------------------
    def report(self) -> dict:
        return self.finish()

    def finish(self) -> dict:
        """Read every kept loss and event once, at the end (one synchronisation)."""
        if self.clock.use_cuda_events:
            torch.cuda.synchronize()
        previous = self.first_event
        steps = []
        for step in self.steps or self.backward_steps:
            step.tally.resolve_events()
            seconds = step.wall
            if step.event is not None and previous is not None:
                seconds = previous.elapsed_time(step.event) / 1000.0
            previous = step.event
            steps.append({
                "losses": [_to_float(loss) for loss in step.losses],
                "time_s": seconds,
                **step.tally.as_dict(),
            })
        self.setup.resolve_events()
        self.tally.resolve_events()
        return {
            "steps": steps,
            "setup": self.setup.as_dict(),
            "step_kind": self.step_kind,
            "epoch_starts": self.epoch_starts(),
            "device_rng": self.device_rng,
            "mixed_precision": self.mixed_precision,
        }


def _cuda_target(args, kwargs):
    # `Tensor.cuda()` always targets CUDA: this names what the call does, not a device choice.
    return torch.device("cuda")  # noqa: DEV001 (what `.cuda()` targets)


def _to_float(tensor) -> Optional[float]:
    try:
        return float(tensor.float().cpu().item())
    except Exception:  # a loss that cannot be read back is reported as missing
        return None


def _is_device(value) -> bool:
    if isinstance(value, torch.device):
        return value.type == "cuda"
    if isinstance(value, int) and not isinstance(value, bool):
        return True  # a bare ordinal names a CUDA device
    return isinstance(value, str) and value.startswith("cuda")


def _factory_on_device(args, kwargs) -> bool:
    return "device" in kwargs and _is_device(kwargs["device"])


def _input_on_device(args, kwargs) -> bool:
    first = args[0] if args else kwargs.get("input")
    return isinstance(first, torch.Tensor) and first.is_cuda or _factory_on_device(args, kwargs)


def _dropout_on_device(args, kwargs) -> bool:
    p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
    training = kwargs.get("training", args[2] if len(args) > 2 else True)
    return bool(training) and p > 0 and _input_on_device(args, kwargs)
