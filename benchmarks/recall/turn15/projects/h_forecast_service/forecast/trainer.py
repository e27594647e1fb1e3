import torch

from . import metrics
from .model import DirectMultiHorizon


class Trainer:
    def __init__(self, cfg, scaler):
        self.cfg = cfg
        self.device = torch.device(cfg.device)
        self.mean = torch.as_tensor(scaler[0], device=self.device)
        self.std = torch.as_tensor(scaler[1], device=self.device)
        self.model = DirectMultiHorizon(cfg.n_series, cfg.hidden, cfg.horizon, cfg.step_dim).to(self.device)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr, weight_decay=1e-4)

    def weighted_mse(self, pred, y):
        per_step = ((pred - y) ** 2).mean(dim=-1)          # (B, H)
        return (per_step * self.cfg.horizon_weights).mean()

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            loss = self.weighted_mse(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            total += loss.item()
        return total / len(loader)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        preds, targets = [], []
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            preds.append(self.model(x) * self.std + self.mean)
            targets.append(y * self.std + self.mean)
        per_step = metrics.smape(torch.cat(preds), torch.cat(targets))
        return metrics.summarize(per_step)

    def fit(self, train_loader, val_loader):
        for epoch in range(self.cfg.epochs):
            loss = self.train_epoch(train_loader)
            report = self.evaluate(val_loader)
            print(f"epoch {epoch}: train {loss:.4f} | " + " ".join(f"{k} {v:.2f}" for k, v in report.items()))
        return report
