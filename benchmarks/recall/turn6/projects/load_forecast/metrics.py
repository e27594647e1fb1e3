"""Error metrics reported after training."""
import numpy as np


def smape(pred, target):
    p = np.asarray(pred, dtype=np.float64)  # expect: DEV011
    t = np.asarray(target, dtype=np.float64)  # also: DEV011
    return 100 * np.mean(np.abs(p - t) / ((np.abs(p) + np.abs(t)) / 2 + 1e-8))


def coverage(lower, upper, target):
    return float(((target >= lower) & (target <= upper)).float().mean())
