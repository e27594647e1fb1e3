"""LightningModule that computes a label prior from the training set in on_fit_start."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LogitAdjustedClassifier(L.LightningModule):
    """Long-tailed classification with logit adjustment (Menon et al.): logits + tau * log prior."""

    def __init__(self, in_dim=64, n_classes=10, tau=1.0):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, n_classes))

    def on_fit_start(self):
        labels = self.trainer.datamodule.train_labels
        counts = torch.bincount(labels, minlength=self.hparams.n_classes).float()
        self.log_prior = torch.log(counts / counts.sum())  # expect: DEV010

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x) + self.hparams.tau * self.log_prior
        loss = F.cross_entropy(logits, y)
        self.log("train/loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class LongTailData(L.LightningDataModule):
    def setup(self, stage=None):
        g = torch.Generator().manual_seed(0)
        probs = torch.tensor([0.5 ** k for k in range(10)])
        self.train_labels = torch.multinomial(probs, 5000, replacement=True, generator=g)
        self.train_x = torch.randn(5000, 64, generator=g) + self.train_labels[:, None].float() * 0.1

    def train_dataloader(self):
        return DataLoader(TensorDataset(self.train_x, self.train_labels), batch_size=128, shuffle=True)


if __name__ == "__main__":
    L.Trainer(max_epochs=3, accelerator="auto", devices=1).fit(LogitAdjustedClassifier(), datamodule=LongTailData())
