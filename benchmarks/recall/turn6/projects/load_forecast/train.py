"""Train the load forecaster on a synthetic daily-periodic series and report sMAPE."""
import torch
import torch.nn.functional as F

from config import ForecastConfig
from features import calendar_encoding, sliding_windows
from metrics import smape
from model import Forecaster


def main():
    cfg = ForecastConfig()
    t = torch.arange(2000, dtype=torch.float32)
    series = 10 + 3 * torch.sin(2 * torch.pi * t / 24) + 0.3 * torch.randn(2000)
    x, y = sliding_windows(series, cfg.window, cfg.horizon)
    split = int(0.8 * len(x))
    model = Forecaster(cfg.hidden).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    cal = calendar_encoding(cfg.horizon)
    for epoch in range(cfg.epochs):
        perm = torch.randperm(split)
        for i in range(0, split, 64):
            idx = perm[i:i + 64]
            xb, yb = x[idx].to(cfg.device), y[idx].to(cfg.device)
            loss = F.mse_loss(model(xb, cal), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(x[split:].to(cfg.device), cal)
    print("sMAPE", smape(pred, y[split:].to(cfg.device)))


if __name__ == "__main__":
    main()
