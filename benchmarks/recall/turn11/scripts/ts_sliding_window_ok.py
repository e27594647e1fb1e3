"""Look-alike of ts_scaler_inverse_transform_cuda.py: the forecasts are copied to the host with
.cpu() before scikit-learn maps them back to megawatts, the per-window normalisation statistics
are computed on the device, and a CPU permutation picks validation windows of device tensors.

Thread: https://github.com/zhouhaoyi/Informer2020/issues/82 (the maintainers' fix: inverse
transform in torch or on host arrays, not on CUDA outputs).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset

WINDOW, HORIZON = 24, 6


def windows(series):
    idx = np.arange(len(series) - WINDOW - HORIZON)[:, None]
    x = series[idx + np.arange(WINDOW)]
    y = series[idx + WINDOW + np.arange(HORIZON)]
    return torch.tensor(x, dtype=torch.float32).unsqueeze(-1), torch.tensor(y, dtype=torch.float32)


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, HORIZON)

    def forward(self, x):
        mean, std = x.mean(1, keepdim=True), x.std(1, keepdim=True) + 1e-5
        out, _ = self.lstm((x - mean) / std)
        return self.head(out[:, -1]) * std.squeeze(-1) + mean.squeeze(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    t = np.arange(600)
    load = 50 + 10 * np.sin(2 * np.pi * t / 24) + np.random.randn(600)
    scaler = StandardScaler()
    scaled = scaler.fit_transform(load.reshape(-1, 1)).ravel()
    x, y = windows(scaled[:500])
    vx, vy = windows(scaled[500:])
    model = Forecaster().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(5):
        total = 0.0
        for xb, yb in DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True):
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: mse {total:.3f}")
    model.eval()
    vx, vy = vx.to(device), vy.to(device)
    with torch.no_grad():
        preds = model(vx)
        pick = torch.randperm(len(vx))[:8]
        print("sample window error:", (preds[pick] - vy[pick]).abs().mean().item())
    preds_mw = scaler.inverse_transform(preds.cpu().numpy().reshape(-1, 1)).reshape(-1, HORIZON)
    truth_mw = scaler.inverse_transform(vy.cpu().numpy().reshape(-1, 1)).reshape(-1, HORIZON)
    print("validation MAE (MW):", np.abs(preds_mw - truth_mw).mean())


if __name__ == "__main__":
    main()
