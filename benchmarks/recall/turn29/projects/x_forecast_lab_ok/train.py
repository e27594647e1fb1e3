"""Train the forecaster and report errors on the held-out tail: `python train.py`."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from config import Config
from data import MinMaxScaler, SlidingWindows, make_series
from metrics import scaled_errors
from models import Seq2SeqForecaster


def evaluate(model, loader, scaler, device):
    model.eval()
    preds, targets = [], []
    with torch.no_grad():
        for x, y in loader:
            preds.append(model(x.to(device)))
            targets.append(y)
    return scaled_errors(torch.cat(preds), torch.cat(targets), scaler)


def main():
    cfg = Config()
    series = make_series()
    split = int(len(series) * 0.8)
    scaler = MinMaxScaler().fit(series[:split])
    scaled = scaler.transform(series)
    train_loader = DataLoader(SlidingWindows(scaled[:split], cfg.lookback, cfg.horizon),
                              batch_size=cfg.batch_size, shuffle=True)
    test_loader = DataLoader(SlidingWindows(scaled[split - cfg.lookback:], cfg.lookback, cfg.horizon),
                             batch_size=cfg.batch_size)

    model = Seq2SeqForecaster(cfg.hidden, cfg.horizon).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = nn.MSELoss()
    for epoch in range(cfg.epochs):
        model.train()
        tf_ratio = max(0.0, 0.5 - 0.2 * epoch)
        for x, y in train_loader:
            x, y = x.to(cfg.device), y.to(cfg.device)
            loss = loss_fn(model(x, teacher=y, tf_ratio=tf_ratio), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: train mse {loss.item():.5f}", evaluate(model, test_loader, scaler, cfg.device))


if __name__ == "__main__":
    main()
