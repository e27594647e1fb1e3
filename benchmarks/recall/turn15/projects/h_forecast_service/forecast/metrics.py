import numpy as np


def smape(pred, target, eps=1e-6):
    """Symmetric MAPE in percent, per horizon step. pred/target: tensors (N, H, C)."""
    p, t = pred.detach().numpy(), target.detach().numpy()  # expect: DEV011
    err = 2 * np.abs(p - t) / (np.abs(p) + np.abs(t) + eps)
    return 100 * err.mean(axis=(0, 2))


def summarize(per_step):
    near = per_step[: max(1, len(per_step) // 4)].mean()
    return {"smape_mean": float(per_step.mean()), "smape_near": float(near),
            "smape_last": float(per_step[-1])}
