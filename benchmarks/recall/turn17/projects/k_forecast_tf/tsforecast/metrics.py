import numpy as np
import torch


def mae(pred, true):
    return float(np.mean(np.abs(pred - true)))


def rmse(pred, true):
    return float(np.sqrt(np.mean((pred - true) ** 2)))


def smape(pred, true, eps=1e-8):
    return float(np.mean(2 * np.abs(pred - true) / (np.abs(pred) + np.abs(true) + eps)) * 100)


@torch.no_grad()
def evaluate(model, loader, device, scaler, target_index=0):
    model.eval()
    preds, trues = [], []
    for past, future in loader:
        out = model(past.to(device))
        preds.append(out.squeeze(-1).numpy())  # expect: DEV011
        trues.append(future.squeeze(-1).numpy())
    pred = scaler.inverse_target(np.concatenate(preds), target_index)
    true = scaler.inverse_target(np.concatenate(trues), target_index)
    return {"mae": mae(pred, true), "rmse": rmse(pred, true), "smape": smape(pred, true)}
