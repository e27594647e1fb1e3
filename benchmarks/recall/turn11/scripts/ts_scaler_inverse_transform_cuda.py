"""Hourly load forecasting with an LSTM over sliding windows; the series is standardised with
scikit-learn and the forecasts are mapped back to megawatts with the same scaler.

Thread: https://github.com/zhouhaoyi/Informer2020/issues/82 (with inverse=True,
scaler.inverse_transform(outputs) raises "can't convert cuda:0 device type tensor to numpy").
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset

WINDOW, HORIZON = 24, 6


def windows(series):
    xs, ys = [], []
    for s in range(len(series) - WINDOW - HORIZON):
        xs.append(series[s:s + WINDOW])
        ys.append(series[s + WINDOW:s + WINDOW + HORIZON])
    x = torch.tensor(np.array(xs), dtype=torch.float32).unsqueeze(-1)
    return x, torch.tensor(np.array(ys), dtype=torch.float32)


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, HORIZON)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


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
        for xb, yb in DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True):
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        preds = model(vx.to(device))
    preds_mw = scaler.inverse_transform(preds.reshape(-1, 1)).reshape(-1, HORIZON)  # expect: DEV011
    truth_mw = scaler.inverse_transform(vy.reshape(-1, 1)).reshape(-1, HORIZON)
    print("validation MAE (MW):", np.abs(preds_mw - truth_mw).mean())


if __name__ == "__main__":
    main()
