"""The loss comparison of `devlint verify`: pure Python, no torch."""
import math

import pytest

from devlint.verify.compare import (
    DIVERGED, FAILED, IDENTICAL, MATCH, NOT_COMPARABLE, STRICT, compare_losses,
)


def curve(n=50, start=2.0):
    return [start * 0.95 ** i for i in range(n)]


def test_identical_runs_are_identical():
    assert compare_losses(curve(), curve()).verdict == IDENTICAL


def test_float_noise_matches():
    base = curve()
    other = [v * (1 + 1e-6 * (-1) ** i) for i, v in enumerate(base)]
    result = compare_losses(base, other)
    assert result.verdict == MATCH
    assert 0 < result.max_rel_diff < 2e-6


def test_late_drift_within_the_smoothed_window_matches():
    base = curve()
    # noise grows with training, as Adam amplifies reduction-order differences
    other = [v * (1 + (0.02 if i >= 10 else 0.0) * (-1) ** i) for i, v in enumerate(base)]
    assert compare_losses(base, other).verdict == MATCH


def test_early_difference_is_a_divergence_with_its_step():
    base = curve()
    other = list(base)
    other[2] *= 1.01
    result = compare_losses(base, other)
    assert result.verdict == DIVERGED
    assert result.first_bad_step == 3
    assert result.onset["0.001"] == 3


def test_late_systematic_difference_diverges():
    base = curve()
    other = base[:20] + [v * 1.2 for v in base[20:]]
    result = compare_losses(base, other)
    assert result.verdict == DIVERGED
    assert result.first_bad_step == 21


def test_nan_in_one_run_only_fails():
    base = curve(12)
    other = list(base)
    other[5] = float("nan")
    result = compare_losses(base, other)
    assert result.verdict == FAILED and "nan at step 6" in result.reason


def test_nan_in_both_runs_at_the_same_step_is_not_a_difference():
    base = curve(12)
    base[4] = float("nan")
    assert compare_losses(base, list(base)).verdict == IDENTICAL


def test_inf_in_one_run_fails():
    base = curve(12)
    other = list(base)
    other[0] = math.inf
    assert compare_losses(base, other).verdict == FAILED


def test_different_step_counts_fail():
    result = compare_losses(curve(10), curve(9))
    assert result.verdict == FAILED and "step counts" in result.reason


def test_no_steps_fail():
    assert compare_losses([], []).verdict == FAILED


def test_device_rng_makes_a_difference_not_comparable():
    base = curve()
    other = [v * 1.05 for v in base]
    result = compare_losses(base, other, device_rng=True)
    assert result.verdict == NOT_COMPARABLE and result.ok


def test_mixed_precision_on_one_side_allows_its_precision_gap():
    base = curve()
    other = [v * (1 + 3e-3 * (-1) ** i) for i, v in enumerate(base)]
    assert compare_losses(base, other).verdict == DIVERGED
    assert compare_losses(base, other, mixed_precision=True).verdict == MATCH


@pytest.mark.parametrize("rel", [1e-4])
def test_strict_tolerance_is_tighter(rel):
    base = curve()
    other = [v * (1 + rel) for v in base]
    assert compare_losses(base, other).verdict == MATCH
    assert compare_losses(base, other, STRICT).verdict == DIVERGED


def test_missing_losses_are_skipped_not_compared():
    base = curve(5)
    other = list(base)
    base[1] = other[1] = None
    assert compare_losses(base, other).verdict == IDENTICAL
