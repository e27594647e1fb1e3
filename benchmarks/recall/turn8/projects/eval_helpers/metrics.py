"""Score summaries for the churn model's report.

Thread: https://github.com/neuro-ml/thunder/issues/49 (a metrics helper calling np.asarray on
predictions it was handed on the GPU).
"""
import numpy as np


def summarize(scores):
    lo, mid, hi = np.percentile(scores, [5, 50, 95])  # expect: DEV011
    return {"p05": float(lo), "p50": float(mid), "p95": float(hi)}
