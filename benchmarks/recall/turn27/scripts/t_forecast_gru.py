"""Multi-step load forecasting with a GRU over sliding windows (notebook export)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

# ---- settings ----
DEVICE = "cuda"  # expect: DEV001
WINDOW, HORIZON = 24, 6
HIDDEN, LAYERS = 32, 2
EPOCHS = 3


class Scaler:
    def fit(self, x):
        self.mean, self.std = x.mean(axis=0), x.std(axis=0) + 1e-8
        return self

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse_transform(self, x):
        return x * self.std + self.mean


def make_windows(series, window, horizon):
    xs, ys = [], []
    for i in range(len(series) - window - horizon + 1):
        xs.append(series[i:i + window])
        ys.append(series[i + window:i + window + horizon, 0])
    return np.stack(xs).astype(np.float32), np.stack(ys).astype(np.float32)


class Forecaster(nn.Module):
    def __init__(self, n_features, hidden, layers, horizon):
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.gru = nn.GRU(n_features, hidden, layers, batch_first=True)
        self.head = nn.Linear(hidden, horizon)

    def forward(self, x):
        h0 = torch.zeros(self.layers, x.size(0), self.hidden)  # expect: DEV006
        out, _ = self.gru(x, h0)
        return self.head(out[:, -1])


# ---- data ----
t = np.arange(600)
series = np.stack([10 + 3 * np.sin(2 * np.pi * t / 24) + np.random.randn(600) * 0.3,
                   np.cos(2 * np.pi * t / 168)], axis=1)
split = 480
scaler = Scaler().fit(series[:split])
scaled = scaler.transform(series)
x_tr, y_tr = make_windows(scaled[:split], WINDOW, HORIZON)
x_te, y_te = make_windows(scaled[split - WINDOW:], WINDOW, HORIZON)
train_loader = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)), batch_size=32, shuffle=True)

# ---- training ----
model = Forecaster(2, HIDDEN, LAYERS, HORIZON).to(DEVICE)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()
for epoch in range(EPOCHS):
    for xb, yb in train_loader:
        xb, yb = xb.to(DEVICE), yb.to(DEVICE)
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, loss.item())

# ---- evaluation in original units ----
model.eval()
with torch.no_grad():
    pred = model(torch.from_numpy(x_te).to(DEVICE)).numpy()  # expect: DEV011
pred_units = pred * scaler.std[0] + scaler.mean[0]
true_units = y_te * scaler.std[0] + scaler.mean[0]
print("MAE:", float(np.abs(pred_units - true_units).mean()))
