import torch
import torch.nn as nn

from .metrics import evaluate


class Trainer:
    def __init__(self, model, cfg, device, scaler):
        self.model = model.to(device)
        self.cfg = cfg
        self.device = device
        self.scaler = scaler
        self.opt = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.loss_fn = nn.MSELoss()

    def train_epoch(self, loader, epoch):
        self.model.train()
        tf = max(0.0, self.cfg.teacher_forcing - self.cfg.tf_decay * epoch)
        total, n = 0.0, 0
        for past, future in loader:
            past, future = past.to(self.device), future.to(self.device)
            pred = self.model(past, future, teacher_forcing=tf)
            loss = self.loss_fn(pred, future)
            self.opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
            total += loss.item() * past.size(0)
            n += past.size(0)
        return total / n, tf

    def fit(self, loaders):
        for epoch in range(self.cfg.epochs):
            train_loss, tf = self.train_epoch(loaders["train"], epoch)
            val = evaluate(self.model, loaders["val"], self.device, self.scaler, self.cfg.target_index)
            print(f"epoch {epoch} tf={tf:.2f} train_mse={train_loss:.4f} val_mae={val['mae']:.3f}")
        return evaluate(self.model, loaders["test"], self.device, self.scaler, self.cfg.target_index)
