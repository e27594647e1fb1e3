"""One-step-ahead forecasting of a noisy sine wave with an LSTM over sliding windows."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

WINDOW = 20


def make_windows(series, window):
    xs = np.stack([series[i:i + window] for i in range(len(series) - window)])
    ys = series[window:]
    return torch.from_numpy(xs).float().unsqueeze(-1), torch.from_numpy(ys).float()


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


t = np.linspace(0, 12 * np.pi, 260)
series = np.sin(t) + 0.1 * np.random.default_rng(0).normal(size=t.shape)
X, y = make_windows(series, WINDOW)
split = 200
train_loader = DataLoader(TensorDataset(X[:split], y[:split]), batch_size=32, shuffle=True)
X_test, y_test = X[split:], y[split:]

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Forecaster().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
criterion = nn.MSELoss()

for epoch in range(2):
    model.train()
    for xb, yb in train_loader:
        xb = xb.to(device)
        pred = model(xb)
        loss = criterion(pred, yb.unsqueeze(-1))  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} train mse {loss.item():.4f}")

model.eval()
with torch.no_grad():
    preds = model(X_test.to(device)).squeeze(-1).detach().numpy()  # expect: DEV011
rmse = float(np.sqrt(np.mean((preds - y_test.numpy()) ** 2)))
print(f"test RMSE {rmse:.4f}")
