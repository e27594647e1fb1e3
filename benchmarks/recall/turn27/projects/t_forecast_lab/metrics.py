import numpy as np


def mae_in_units(preds, targets, scaler):
    """Mean absolute error after undoing the min-max scaling of the target column."""
    p = scaler.inverse_target(preds.detach().numpy())  # expect: DEV011
    t = scaler.inverse_target(targets.numpy())
    return float(np.abs(p - t).mean())
