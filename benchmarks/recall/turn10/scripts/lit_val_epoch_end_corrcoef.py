"""Tabular regressor in Lightning: validation_step keeps the predictions, and the epoch-end hook
logs the Pearson correlation between predictions and targets, computed with NumPy.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/2442 (validation_epoch_end with an
sklearn/NumPy metric breaks once the outputs live on the GPU).
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self, d_in=12, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, 1))
        self.val_preds, self.val_targets = [], []

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self(x), y)
        self.log("train_mse", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        pred = self(x)
        self.val_preds.append(pred)
        self.val_targets.append(y)
        self.log("val_mse", F.mse_loss(pred, y))

    def on_validation_epoch_end(self):
        preds = torch.cat(self.val_preds)
        targets = torch.cat(self.val_targets)
        r = np.corrcoef(preds, targets)[0, 1]  # expect: DEV011
        self.log("val_pearson", float(r))
        self.val_preds.clear()
        self.val_targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def loader(n, shuffle):
    x = torch.randn(n, 12)
    y = x[:, :3].sum(1) + 0.1 * torch.randn(n)
    return DataLoader(TensorDataset(x, y), batch_size=64, shuffle=shuffle)


if __name__ == "__main__":
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(Regressor(), loader(1024, True), loader(256, False))
