"""LSTM forecaster on sliding windows of a scaled synthetic load curve, predictions un-scaled with NumPy.

From forecasting threads: a shape check that moved one batch to the GPU before the epoch loop
and the loop then training on the loader's CPU batches ("Input and hidden tensors are not at the
same device" / "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor)"), and
"can't convert cuda:0 device type tensor to numpy" from `scaler.inverse_transform(preds.numpy())`.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class StandardScaler:
    def fit(self, x):
        self.mean_, self.std_ = x.mean(0), x.std(0) + 1e-8
        return self

    def transform(self, x):
        return (x - self.mean_) / self.std_

    def inverse_transform(self, x):
        return x * self.std_ + self.mean_


def make_windows(series, lookback=24, horizon=6):
    xs, ys = [], []
    for t in range(len(series) - lookback - horizon + 1):
        xs.append(series[t:t + lookback])
        ys.append(series[t + lookback:t + lookback + horizon, 0])
    return np.stack(xs).astype(np.float32), np.stack(ys).astype(np.float32)


class Forecaster(nn.Module):
    def __init__(self, n_features=2, hidden=32, horizon=6):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, num_layers=2, batch_first=True, dropout=0.1)
        self.head = nn.Linear(hidden, horizon)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    t = np.arange(600)
    load = 50 + 10 * np.sin(2 * np.pi * t / 24) + rng.normal(0, 1, t.size)
    temp = 15 + 5 * np.sin(2 * np.pi * (t - 6) / 24) + rng.normal(0, 0.5, t.size)
    series = np.stack([load, temp], axis=1)
    split = 480
    scaler = StandardScaler().fit(series[:split])
    scaled = scaler.transform(series)
    X_train, y_train = make_windows(scaled[:split])
    X_test, y_test = make_windows(scaled[split - 24:])
    train_loader = DataLoader(TensorDataset(torch.from_numpy(X_train), torch.from_numpy(y_train)),
                              batch_size=32, shuffle=True)

    model = Forecaster().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    criterion = nn.MSELoss()

    xb, yb = next(iter(train_loader))
    xb, yb = xb.to(device), yb.to(device)  # expect: DEV003
    print("window batch", tuple(xb.shape), "target batch", tuple(yb.shape))
    for epoch in range(5):
        model.train()
        for xb, yb in train_loader:
            pred = model(xb)  # also: DEV002
            loss = criterion(pred, yb)  # also: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: mse {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        preds = model(torch.from_numpy(X_test).to(device))
    load_std, load_mean = scaler.std_[0], scaler.mean_[0]
    preds_kw = preds.numpy() * load_std + load_mean  # expect: DEV011
    truth_kw = y_test * load_std + load_mean
    print(f"test MAE: {np.abs(preds_kw - truth_kw).mean():.2f} kW")


if __name__ == "__main__":
    main()
