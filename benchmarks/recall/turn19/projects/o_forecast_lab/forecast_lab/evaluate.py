import numpy as np
import torch

from .data import to_device


@torch.no_grad()
def evaluate(model, loader, scaler, device):
    model.eval()
    abs_err, within = [], []
    for batch in loader:
        batch = to_device(batch, device)
        point, scale = model(batch["history"], batch["lengths"], batch["series_id"])
        sid = batch["series_id"].cpu().numpy()
        pred = scaler.inverse_transform(point.cpu().numpy(), sid)
        true = scaler.inverse_transform(batch["target"].cpu().numpy(), sid)
        band = scale.cpu().numpy() * scaler.std[sid]
        abs_err.append(np.abs(pred - true))
        within.append(np.abs(pred - true) <= 1.96 * band)
    model.train()
    return float(np.concatenate(abs_err).mean()), float(np.concatenate(within).mean())
