"""Run the sweep on every device within a time budget.

Points go from small to large. Before a point runs on a device, its step time is predicted from
the FLOP rate that device reached on the points before it; a point whose warm-up and minimum
steps would not fit in what is left of the budget is skipped with that reason, so the sweep
ends near the budget instead of starting a step that takes minutes. Each point gets an equal
share of what is left for its measured steps.
"""
from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from devlint.bench.measure import MIN_STEPS, WARMUP_STEPS, Measurement, Shape, measure, shape_of
from devlint.bench.points import SWEEP, Point
from devlint.verify.runner import usable_cores

CPU = "cpu"
ACCELERATORS = ("cuda", "mps")
KNOWN = (CPU,) + ACCELERATORS

# An estimate for machines without a GPU, labelled as such wherever it is shown: PCIe 4.0 x16
# moves about 25 GB/s from pinned memory and about half that from ordinary (pageable) memory,
# which is what a DataLoader without pin_memory hands over; each copy also costs ~10 us.
PCIE_BYTES_PER_S = 12e9
PCIE_COPY_LATENCY_S = 10e-6
PCIE_ASSUMPTION = "PCIe 4.0 x16 from pageable memory: ~12 GB/s and ~10 us per copy"
COPIES_PER_STEP = 2  # inputs and targets


# A point whose step is this much slower than a point with more work was slowed by the machine.
FLOOR_MARGIN = 1.5


def load_average() -> Optional[float]:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every platform
        return None


def estimated_copy_s(nbytes: float, copies: float = COPIES_PER_STEP) -> float:
    """Host-to-device copies of `nbytes` in `copies` pieces on a typical PCIe GPU: an estimate,
    never a measurement."""
    return nbytes / PCIE_BYTES_PER_S + copies * PCIE_COPY_LATENCY_S


@dataclass
class DeviceResult:
    device: str
    status: str  # measured | skipped | failed
    reason: str = ""
    step_times_s: list[float] = field(default_factory=list)
    transfer_times_s: list[float] = field(default_factory=list)  # batch copies, per step
    model_transfer_s: Optional[float] = None
    predicted_step_s: Optional[float] = None  # for a point skipped by the budget
    speedup: Optional[float] = None  # the CPU's median step over this device's
    speedup_estimated: bool = False  # against the CPU's predicted step (the CPU was skipped)
    load: Optional[float] = None  # the 1-minute load average when it was measured

    @property
    def median_step_s(self) -> Optional[float]:
        return statistics.median(self.step_times_s) if self.step_times_s else None

    @property
    def median_transfer_s(self) -> Optional[float]:
        return statistics.median(self.transfer_times_s) if self.transfer_times_s else None

    @property
    def transfer_share(self) -> Optional[float]:
        if self.median_step_s is None or self.median_transfer_s is None or self.median_step_s <= 0:
            return None
        return min(self.median_transfer_s / self.median_step_s, 1.0)

    @property
    def measured(self) -> bool:
        return self.status == "measured"

    @property
    def half_medians(self) -> Optional[tuple[float, float]]:
        """Medians of the first and the second half of the steps: one point measured twice."""
        return half_medians(self.step_times_s)

    @property
    def unstable(self) -> bool:
        return disagree(self.half_medians)


# Two medians of one point further apart than this were measured on a busy machine (another
# job took the cores for part of the run): one point once read 128 ms, and 0.95 ms next time.
UNSTABLE_RATIO = 2.0


def half_medians(times: list[float]) -> Optional[tuple[float, float]]:
    if len(times) < 4:
        return None
    middle = len(times) // 2
    return statistics.median(times[:middle]), statistics.median(times[middle:])


def disagree(medians: Optional[tuple[float, float]]) -> bool:
    if medians is None or min(medians) <= 0:
        return False
    return max(medians) / min(medians) > UNSTABLE_RATIO


@dataclass
class PointResult:
    point: Point
    shape: Shape
    results: dict[str, DeviceResult] = field(default_factory=dict)

    @property
    def estimated_transfer_s(self) -> float:
        return estimated_copy_s(self.shape.batch_bytes)

    def achieved_flops(self, device: str) -> Optional[float]:
        result = self.results.get(device)
        if result is None or not result.measured or not result.median_step_s:
            return None
        return self.shape.flops / result.median_step_s


@dataclass
class BenchResult:
    devices: list[str]
    device_names: dict[str, str]
    budget_s: float
    torch_version: str
    points: list[PointResult] = field(default_factory=list)
    elapsed_s: float = 0.0
    cores: int = field(default_factory=lambda: usable_cores())

    def suspects(self, device: str) -> dict[str, str]:
        """The points of `device` measured on an overloaded machine, by name, with why: the
        load average was above the cores, or (the floor check) the step took longer than the
        step of a point with more work: a step time cannot fall as the work grows, so the
        smaller point was slowed by something else."""
        out: dict[str, str] = {}
        measured = [(e, e.results[device]) for e in sorted(self.points, key=lambda e: e.shape.flops)
                    if device in e.results and e.results[device].measured]
        for index, (entry, result) in enumerate(measured):
            if result.load is not None and result.load > self.cores:
                out[entry.point.name] = (f"load average {result.load:.1f} on {self.cores} "
                                         f"core{'s' if self.cores != 1 else ''}")
                continue
            faster = next((e for e, r in measured[index + 1:] if e.shape.flops > entry.shape.flops
                           and r.median_step_s * FLOOR_MARGIN < result.median_step_s), None)
            if faster is not None:
                out[entry.point.name] = (f"slower than {faster.point.name}, which does "
                                         f"{faster.shape.flops / entry.shape.flops:.0f}x the work")
        return out

    @property
    def accelerators(self) -> list[str]:
        return [d for d in self.devices if d != CPU]


def available_devices(torch: Any) -> list[str]:
    found = [CPU]
    if torch.cuda.is_available():
        found.append("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        found.append("mps")
    return found


def device_name(device: str, torch: Any) -> str:
    if device == "cuda":
        return torch.cuda.get_device_name(0)
    if device == "mps":
        return "Apple GPU (MPS)"
    import platform

    return platform.processor() or platform.machine() or "cpu"


@dataclass
class _Pace:
    """What a device has shown so far, to predict a larger point's step: a fixed cost per step
    (launches, Python, the optimizer's loop: the smallest step seen) plus FLOPs at the best rate
    seen on a step clearly above that floor (a tiny point's rate says nothing of arithmetic)."""

    floor_s: float = 0.0
    rate: Optional[float] = None
    build_s_per_param: float = 0.0  # from the largest model built so far

    def learn(self, shape: Shape, measurement: Measurement) -> None:
        step = measurement.median_step_s
        self.floor_s = min(self.floor_s, step) if self.floor_s else step
        if step > 1.5 * self.floor_s:
            self.rate = max(self.rate or 0.0, shape.flops / (step - self.floor_s))
        if shape.params >= 10_000:  # below that, building is all fixed cost
            self.build_s_per_param = measurement.build_s / shape.params

    def predict(self, shape: Shape) -> Optional[tuple[float, float]]:
        """(seconds per step, seconds to build and run warm-up and the minimum steps), or None
        before the device has shown its rate."""
        if self.rate is None:
            return None
        step = self.floor_s + shape.flops / self.rate
        return step, shape.params * self.build_s_per_param + (WARMUP_STEPS + MIN_STEPS) * step


def run_sweep(devices: list[str], budget_s: float, torch: Any,
              clock: Callable[[], float] = time.perf_counter,
              progress: Optional[Callable[[int, int, str], None]] = None,
              points: tuple[Point, ...] = SWEEP) -> BenchResult:
    result = BenchResult(devices, {d: device_name(d, torch) for d in devices}, budget_s,
                         str(torch.__version__))
    began = clock()
    paces = {device: _Pace() for device in devices}
    total, done = len(points) * len(devices), 0
    for point in points:
        entry = PointResult(point, shape_of(point, torch))
        result.points.append(entry)
        for device in devices:
            if progress is not None:
                progress(done, total, f"{point.name} on {device}")
            left = budget_s - (clock() - began)
            pairs_left = total - done
            entry.results[device] = _run_one(entry, device, torch, left, pairs_left, paces[device], clock)
            done += 1
        _add_speedups(entry)
    result.elapsed_s = clock() - began
    if progress is not None:
        progress(total, total, "done")
    return result


def _run_one(entry: PointResult, device: str, torch: Any, left_s: float, pairs_left: int,
             pace: _Pace, clock: Callable[[], float]) -> DeviceResult:
    predicted = pace.predict(entry.shape)
    if left_s <= 0:
        return DeviceResult(device, "skipped", "the budget was spent on smaller points",
                            predicted_step_s=predicted[0] if predicted else None)
    if predicted is not None and predicted[1] > left_s:
        return DeviceResult(device, "skipped", (
            f"predicted {predicted[0]:.3g} s per step from the {pace.rate / 1e9:.3g} GFLOP/s "
            f"reached so far: set-up and {WARMUP_STEPS + MIN_STEPS} steps would take "
            f"{predicted[1]:.3g} s, {left_s:.3g} s of the budget are left"),
            predicted_step_s=predicted[0])
    try:
        measurement = measure(entry.point, device, torch, allowance_s=left_s / max(pairs_left, 1),
                              clock=clock)
    except RuntimeError as exc:  # out of memory, an unsupported op: the sweep goes on
        _free_memory(torch, device)
        return DeviceResult(device, "failed", str(exc).strip().splitlines()[0][:200])
    pace.learn(entry.shape, measurement)
    _free_memory(torch, device)
    return DeviceResult(device, "measured", step_times_s=measurement.steps,
                        transfer_times_s=measurement.transfers,
                        model_transfer_s=measurement.model_transfer_s, load=load_average())


def _add_speedups(entry: PointResult) -> None:
    base = entry.results.get(CPU)
    if base is None:
        return
    for device, result in entry.results.items():
        if device == CPU or not result.measured:
            continue
        if base.measured:
            result.speedup = base.median_step_s / result.median_step_s
        elif base.predicted_step_s is not None:
            result.speedup = base.predicted_step_s / result.median_step_s
            result.speedup_estimated = True


def _free_memory(torch: Any, device: str) -> None:
    if device == "cuda":
        torch.cuda.empty_cache()
