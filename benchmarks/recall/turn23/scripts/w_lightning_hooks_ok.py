"""(Correct) Lightning regressor that standardises inputs with statistics computed from the datamodule at fit start
and logs a calibration table at the end of each validation epoch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset


class SensorDataModule(L.LightningDataModule):
    def __init__(self, n=512, dim=6, batch_size=64):
        super().__init__()
        self.n, self.dim, self.batch_size = n, dim, batch_size

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(0)
        x = 5.0 + 3.0 * torch.randn(self.n, self.dim, generator=g)
        y = (x.sum(1, keepdim=True) > 30).float()
        self.train_ds = TensorDataset(x[: self.n * 3 // 4], y[: self.n * 3 // 4])
        self.val_ds = TensorDataset(x[self.n * 3 // 4:], y[self.n * 3 // 4:])

    def feature_stats(self):
        x = self.train_ds.tensors[0]
        return {"mean": x.mean(0).tolist(), "std": x.std(0).tolist()}

    def train_dataloader(self):
        return DataLoader(self.train_ds, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_ds, batch_size=self.batch_size)


class SensorClassifier(L.LightningModule):
    def __init__(self, dim=6, hidden=32, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.val_probs, self.val_targets = [], []
        self.register_buffer("mu", torch.zeros(dim))
        self.register_buffer("sigma", torch.ones(dim))

    def on_fit_start(self):
        stats = self.trainer.datamodule.feature_stats()
        self.mu.copy_(torch.tensor(stats["mean"], device=self.device))
        self.sigma.copy_(torch.tensor(stats["std"], device=self.device).clamp(min=1e-6))

    def forward(self, x):
        return self.net((x - self.mu) / self.sigma)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.binary_cross_entropy_with_logits(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.binary_cross_entropy_with_logits(logits, y))
        self.val_probs.append(torch.sigmoid(logits).squeeze(-1))
        self.val_targets.append(y.squeeze(-1))

    def on_validation_epoch_end(self):
        probs = torch.cat(self.val_probs).cpu().numpy()
        targets = torch.cat(self.val_targets).cpu().numpy()
        bins = np.linspace(0, 1, 6)
        idx = np.clip(np.digitize(probs, bins) - 1, 0, 4)
        ece = 0.0
        for b in range(5):
            m = idx == b
            if m.any():
                ece += m.mean() * abs(probs[m].mean() - targets[m].mean())
        self.log("val_ece", float(ece))
        self.val_probs.clear()
        self.val_targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    L.seed_everything(0)
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(SensorClassifier(), datamodule=SensorDataModule())
