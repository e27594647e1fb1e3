import torch
import torch.nn as nn

from config import CFG
from data import build_loaders
from metrics import mae_in_units
from models import GRUForecaster


def main(cfg=CFG):
    device = torch.device(cfg.device)
    train_loader, test_loader, scaler = build_loaders(cfg)
    model = GRUForecaster(2, cfg.hidden, cfg.layers, cfg.horizon).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = nn.MSELoss()

    for epoch in range(cfg.epochs):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()

        model.eval()
        preds, targets = [], []
        with torch.no_grad():
            for xb, yb in test_loader:
                preds.append(model(xb.to(device)))
                targets.append(yb)
        print(f"epoch {epoch}: train mse {loss.item():.4f}, "
              f"test MAE {mae_in_units(torch.cat(preds), torch.cat(targets), scaler):.3f}")


if __name__ == "__main__":
    main()
