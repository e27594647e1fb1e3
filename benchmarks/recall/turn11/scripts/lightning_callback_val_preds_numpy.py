"""Lightning classifier of machine-vibration features with a callback that collects the
validation confidence of every batch and saves a histogram at the end of each validation epoch.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/1429 (CUDA - numpy related
copy error: NumPy/sklearn code on tensors Lightning put on the GPU).
"""
import lightning as L
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ConfidenceHistogram(L.Callback):
    def __init__(self):
        self.conf = []

    def on_validation_epoch_start(self, trainer, pl_module):
        self.conf = []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx,
                                dataloader_idx=0):
        x, _ = batch
        with torch.no_grad():
            probs = pl_module(x).softmax(dim=-1)
        self.conf.append(probs.max(dim=-1).values.numpy())  # expect: DEV011

    def on_validation_epoch_end(self, trainer, pl_module):
        plt.figure()
        plt.hist(np.concatenate(self.conf), bins=10, range=(0, 1))
        plt.savefig(f"confidence_epoch{trainer.current_epoch}.png")
        plt.close()


class VibrationClassifier(L.LightningModule):
    def __init__(self, n_features=32, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", F.cross_entropy(self(x), y))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x, y = torch.randn(600, 32), torch.randint(0, 4, (600,))
    train = DataLoader(TensorDataset(x[:500], y[:500]), batch_size=50, shuffle=True)
    val = DataLoader(TensorDataset(x[500:], y[500:]), batch_size=50)
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[ConfidenceHistogram()])
    trainer.fit(VibrationClassifier(), train, val)
