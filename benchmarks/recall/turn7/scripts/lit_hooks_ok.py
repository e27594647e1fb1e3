"""Lightning hooks done right: a buffer registered in setup, a tensor made on self.device when
fitting starts, validation outputs copied to the host before NumPy."""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Classifier(L.LightningModule):
    def __init__(self, labels, n_classes=3):
        super().__init__()
        self.labels = labels
        self.n_classes = n_classes
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, n_classes))
        self.outs = []

    def setup(self, stage):
        freq = torch.bincount(self.labels, minlength=self.n_classes).float()
        self.register_buffer("log_freq", torch.log(freq / freq.sum()), persistent=False)

    def on_fit_start(self):
        self.margin = torch.full((self.n_classes,), 0.1, device=self.device)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x) + self.log_freq - self.margin
        return F.cross_entropy(logits, y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.outs.append((self.net(x).argmax(-1).cpu(), y.cpu()))

    def on_validation_epoch_end(self):
        preds = torch.cat([p for p, _ in self.outs]).numpy()
        refs = torch.cat([r for _, r in self.outs]).numpy()
        self.log("val_acc", float(np.mean(preds == refs)))
        self.outs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x, y = torch.randn(300, 10), torch.randint(0, 3, (300,))
    train = DataLoader(TensorDataset(x, y), batch_size=30, shuffle=True)
    val = DataLoader(TensorDataset(x[:60], y[:60]), batch_size=30)
    L.Trainer(max_epochs=1, accelerator="auto", logger=False).fit(Classifier(y), train, val)
