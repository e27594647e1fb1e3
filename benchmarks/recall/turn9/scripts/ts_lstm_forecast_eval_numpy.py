"""Univariate LSTM forecaster on sliding windows of a synthetic load curve, then a MAPE report.

Thread: https://github.com/WenjieDu/PyPOTS/issues/21 (can't convert cuda:0 device type tensor to
numpy) and https://github.com/pytorch/pytorch/issues/52186 (LSTM on Colab, data and label moved?).
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Forecaster(nn.Module):
    def __init__(self, hid=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hid, batch_first=True)
        self.fc = nn.Linear(hid, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


def windows(series, w):
    x = np.stack([series[i:i + w] for i in range(len(series) - w)])[..., None]
    y = series[w:][:, None]
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    series = 2 + np.sin(np.arange(500) / 8.0) + 0.1 * np.random.randn(500)
    x, y = windows(series, 24)
    train = DataLoader(TensorDataset(x[:400], y[:400]), batch_size=32, shuffle=True)
    test = DataLoader(TensorDataset(x[400:], y[400:]), batch_size=32)
    model = Forecaster().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for xb, yb in train:
        pred = model(xb.to(device))
        loss = nn.functional.mse_loss(pred, yb)  # expect: DEV004
        opt.zero_grad()
        loss.backward()
        opt.step()
    preds, truth = [], []
    model.eval()
    with torch.no_grad():
        for xb, yb in test:
            preds.append(model(xb.to(device)).squeeze(1).numpy())  # expect: DEV011
            truth.append(yb.squeeze(1).numpy())
    p, t = np.concatenate(preds), np.concatenate(truth)
    print("MAPE", np.mean(np.abs((t - p) / t)))


if __name__ == "__main__":
    main()
