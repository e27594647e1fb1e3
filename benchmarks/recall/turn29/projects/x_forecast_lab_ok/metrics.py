"""Error metrics in the original units of the series."""
import numpy as np


def scaled_errors(pred, target, scaler):
    p = scaler.inverse_transform(pred.detach().cpu().numpy())
    t = scaler.inverse_transform(target.cpu().numpy())
    return {"mae": float(np.abs(p - t).mean()), "rmse": float(np.sqrt(((p - t) ** 2).mean()))}
