"""Time one training step of one point on one device.

A step is what a correct loop does per batch: copy the batch to the device, zero the gradients,
forward, loss, backward, optimizer step. The model is copied once, before the first step. On
CUDA the step and its copies are timed with events read at the step boundary (a copy or a kernel
returns before it has run, so host clocks around them are wrong); elsewhere with the host clock
after a synchronize.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from devlint.bench.points import Built, Point, build, nbytes, parameter_count

WARMUP_STEPS = 2  # the first steps allocate memory and pick kernels
MIN_STEPS = 3  # measured steps a point needs before a median means anything
MAX_STEPS = 30


@dataclass
class Measurement:
    steps: list[float] = field(default_factory=list)  # seconds per measured step
    transfers: list[float] = field(default_factory=list)  # seconds of batch copies per step
    model_transfer_s: float = 0.0
    build_s: float = 0.0  # making the model and its batches on the CPU

    @property
    def median_step_s(self) -> float:
        return statistics.median(self.steps)


class _HostTimer:
    """CPU (and MPS after a synchronize): the host clock is the device's clock."""

    def __init__(self, synchronize: Callable[[], None]) -> None:
        self.synchronize = synchronize

    def mark(self) -> float:
        self.synchronize()
        return time.perf_counter()

    def elapsed(self, start: float, end: float) -> float:
        return end - start

    def boundary(self, mark: Any) -> None:
        pass


class _CudaTimer:
    def __init__(self, torch: Any) -> None:
        self.torch = torch

    def mark(self) -> Any:
        event = self.torch.cuda.Event(enable_timing=True)
        event.record()
        return event

    def elapsed(self, start: Any, end: Any) -> float:
        return start.elapsed_time(end) / 1000.0

    def boundary(self, mark: Any) -> None:
        mark.synchronize()


def timer_for(device: str, torch: Any) -> Any:
    if device == "cuda":
        return _CudaTimer(torch)
    if device == "mps":
        return _HostTimer(torch.mps.synchronize)
    return _HostTimer(lambda: None)


def count_flops(built: Built, torch: Any) -> int:
    """FLOPs of one forward and backward pass, as torch's FlopCounterMode counts them."""
    from torch.utils.flop_counter import FlopCounterMode

    inputs, targets = built.batches[0]
    with FlopCounterMode(display=False) as counter:
        built.loss_fn(built.model(inputs), targets).backward()
    built.model.zero_grad(set_to_none=True)
    return int(counter.get_total_flops())


@dataclass
class Shape:
    """What a point is, independent of the device it runs on."""

    params: int
    flops: int
    batch_bytes: int
    model_bytes: int


def shape_of(point: Point, torch: Any) -> Shape:
    """Counted on the meta device: the largest points would take minutes to run once on a CPU."""
    built = build(point, torch, meta=True)
    inputs, targets = built.batches[0]
    params = list(built.model.parameters())
    return Shape(parameter_count(built.model), count_flops(built, torch),
                 nbytes([inputs, targets]), nbytes(params))


def measure(point: Point, device: str, torch: Any, allowance_s: float,
            clock: Callable[[], float], max_steps: int = MAX_STEPS) -> Measurement:
    """Warm-up steps, then steps until `max_steps` or until `allowance_s` of `clock` time is
    used (never fewer than MIN_STEPS)."""
    building = time.perf_counter()
    built = build(point, torch)
    result = Measurement(build_s=time.perf_counter() - building)
    timer = timer_for(device, torch)
    start = timer.mark()
    model = built.model.to(device)
    end = timer.mark()
    timer.boundary(end)
    result.model_transfer_s = timer.elapsed(start, end)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    began = clock()
    for index in range(WARMUP_STEPS + max_steps):
        inputs, targets = built.batches[index % len(built.batches)]
        start = timer.mark()
        inputs, targets = inputs.to(device), targets.to(device)
        moved = timer.mark()
        optimizer.zero_grad(set_to_none=True)
        built.loss_fn(model(inputs), targets).backward()
        optimizer.step()
        end = timer.mark()
        timer.boundary(end)
        if index >= WARMUP_STEPS:
            result.steps.append(timer.elapsed(start, end))
            result.transfers.append(timer.elapsed(start, moved))
            if len(result.steps) >= MIN_STEPS and clock() - began >= allowance_s:
                break
    return result
