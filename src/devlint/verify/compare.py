"""Do two devices' losses agree? Float32 on two devices differs by ~1e-7 per step (reduction
order), up to ~3e-4 with TF32, and training amplifies it: a single global allclose is wrong.
The first steps are held tight, later ones are compared as smoothed windows, and the report
says at which step the curves started to part (see ../shared/notes/verify-design.md)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

MATCH, IDENTICAL, DIVERGED, NOT_COMPARABLE, FAILED = (
    "match", "identical", "diverged", "not comparable", "failed")


@dataclass(frozen=True)
class Tolerance:
    early_steps: int = 10
    early_rtol: float = 1e-3
    early_atol: float = 1e-5
    window: int = 10
    window_rtol: float = 5e-2
    onsets: tuple[float, ...] = (1e-3, 1e-2)


DEFAULT = Tolerance()
STRICT = Tolerance(early_rtol=1e-5, early_atol=1e-7, window_rtol=1e-3)
# One run in float16 autocast, the other in float32 (a GPU's AMP against the CPU). The AMP
# examples differ by ~5e-5 per step; float16's epsilon is ~1e-3 and a wide matmul accumulates
# several, so 1e-2 per step is the gap; --strict cannot tighten below it. A missing zero_grad
# or shuffled labels still pass 1e-2 within 3 steps.
MIXED_PRECISION = Tolerance(early_rtol=1e-2, early_atol=1e-4, window_rtol=5e-2)


@dataclass
class Comparison:
    verdict: str
    reason: str = ""
    max_rel_diff: Optional[float] = None
    first_bad_step: Optional[int] = None  # 1-based
    onset: Optional[dict] = None  # threshold -> first step whose difference passed it

    @property
    def ok(self) -> bool:
        return self.verdict in (MATCH, IDENTICAL, NOT_COMPARABLE)


def compare_losses(base: Sequence[Optional[float]], other: Sequence[Optional[float]],
                   tolerance: Tolerance = DEFAULT, device_rng: bool = False,
                   mixed_precision: bool = False) -> Comparison:
    """`base` is the CPU run's per-step loss, `other` a device's. With mixed precision on one
    side no tolerance is tighter than the precision gap (--strict included)."""
    if mixed_precision:
        tolerance = MIXED_PRECISION
    if len(base) != len(other):
        return Comparison(FAILED, f"different step counts: {len(base)} on cpu, {len(other)} here")
    if not base:
        return Comparison(FAILED, "no optimizer step ran: nothing to compare")
    pairs = [(i, a, b) for i, (a, b) in enumerate(zip(base, other), start=1)
             if a is not None and b is not None]
    non_finite = _one_sided_non_finite(pairs)
    if non_finite is not None:
        return Comparison(FAILED, f"loss is {non_finite[1]} at step {non_finite[0]} in one run only",
                          first_bad_step=non_finite[0])
    finite = [(i, a, b) for i, a, b in pairs if math.isfinite(a) and math.isfinite(b)]
    diffs = [(i, _rel(a, b)) for i, a, b in finite]
    max_rel = max((d for _, d in diffs), default=0.0)
    onset = {f"{t:g}": next((i for i, d in diffs if d > t), None) for t in tolerance.onsets}
    if all(a == b for _, a, b in finite):
        return Comparison(IDENTICAL, "bit-identical losses", 0.0, None, onset)
    bad = _first_bad_step(finite, tolerance)
    if bad is None:
        reason = ("mixed precision ran on one device only: within its expected gap "
                  f"(rtol {tolerance.early_rtol:g})") if mixed_precision else ""
        return Comparison(MATCH, reason, max_rel, None, onset)
    if device_rng:
        return Comparison(NOT_COMPARABLE, "random ops drew from the GPU's generator (dropout or "
                          "device-side randn): its losses cannot match the CPU's step for step",
                          max_rel, bad, onset)
    gap = " beyond the mixed-precision gap" if mixed_precision else ""
    return Comparison(DIVERGED, f"losses part at step {bad}{gap}", max_rel, bad, onset)


def _rel(a: float, b: float) -> float:
    return abs(a - b) / max(abs(a), abs(b), 1e-12)


def _one_sided_non_finite(pairs):
    for i, a, b in pairs:
        if math.isfinite(a) != math.isfinite(b) or (
            not math.isfinite(a) and repr(a) != repr(b)
        ):
            bad = b if math.isfinite(a) else a
            return i, "nan" if math.isnan(bad) else "inf"
    return None


def _first_bad_step(finite, tol: Tolerance) -> Optional[int]:
    """Per step for the first `early_steps`, then 10-step means."""
    for i, a, b in finite[: tol.early_steps]:
        if abs(a - b) > tol.early_atol + tol.early_rtol * abs(a):
            return i
    rest = finite[tol.early_steps:]
    for w in range(0, len(rest), tol.window):
        chunk = rest[w: w + tol.window]
        mean_a = sum(a for _, a, _ in chunk) / len(chunk)
        mean_b = sum(b for _, _, b in chunk) / len(chunk)
        if abs(mean_a - mean_b) > tol.early_atol + tol.window_rtol * abs(mean_a):
            return chunk[0][0]
    return None
