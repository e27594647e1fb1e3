"""Multi-step forecasting of a univariate series with an LSTM over sliding windows.
Values are standardised with a scaler fitted on the training split only."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

LOOKBACK, HORIZON = 24, 6


class StandardScaler:
    def fit(self, x):
        self.mean, self.std = x.mean(), x.std() + 1e-8
        return self

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse_transform(self, x):
        return x * self.std + self.mean


class WindowDataset(Dataset):
    def __init__(self, series, lookback=LOOKBACK, horizon=HORIZON):
        self.x = torch.tensor(series, dtype=torch.float32)
        self.lookback, self.horizon = lookback, horizon

    def __len__(self):
        return len(self.x) - self.lookback - self.horizon + 1

    def __getitem__(self, i):
        w = self.x[i:i + self.lookback].unsqueeze(-1)
        y = self.x[i + self.lookback:i + self.lookback + self.horizon]
        return w, y


class Forecaster(nn.Module):
    def __init__(self, hidden=32, horizon=HORIZON):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, horizon)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    t = np.arange(600)
    series = np.sin(t * 2 * np.pi / 48) + 0.1 * np.random.default_rng(0).normal(size=t.size)
    split = 480
    scaler = StandardScaler().fit(series[:split])
    train_ds = WindowDataset(scaler.transform(series[:split]))
    train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)

    model = Forecaster().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    crit = nn.MSELoss()

    xb, yb = next(iter(train_loader))
    xb, yb = xb.to(device), yb.to(device)  # expect: DEV003
    print("sanity:", tuple(model(xb).shape), "target", tuple(yb.shape))

    for epoch in range(3):
        model.train()
        running = 0.0
        for xb, yb in train_loader:
            loss = crit(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(xb)
        print(f"epoch {epoch} mse {running / len(train_ds):.4f}")

    model.eval()
    context = torch.tensor(scaler.transform(series[split - LOOKBACK:split]), dtype=torch.float32)
    with torch.no_grad():
        pred = model(context.view(1, LOOKBACK, 1).to(device)).squeeze(0).numpy()  # expect: DEV011
    forecast = scaler.inverse_transform(pred)
    mae = np.abs(forecast - series[split:split + HORIZON]).mean()
    print("forecast", np.round(forecast, 3), "MAE", round(float(mae), 4))


if __name__ == "__main__":
    main()
