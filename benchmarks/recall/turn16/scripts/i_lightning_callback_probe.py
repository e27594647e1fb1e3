"""Digit-like classifier in Lightning with a callback that tracks the model's
confidence on a fixed probe batch, and a predict pass that writes a CSV.
"""
import csv
import os
import tempfile

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.callbacks import Callback
from torch.utils.data import DataLoader, TensorDataset


def synthetic_digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    x = torch.randn(n, 1, 28, 28, generator=g) * 0.3
    for i in range(n):
        r = int(y[i]) * 2 + 4
        x[i, 0, r:r + 3, 4:24] += 1.0
    return TensorDataset(x, y)


class LitNet(L.LightningModule):
    def __init__(self, lr=2e-3):
        super().__init__()
        self.save_hyperparameters()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.fc = nn.Linear(32 * 16, 10)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        acc = (self(x).argmax(-1) == y).float().mean()
        self.log("val_acc", acc, prog_bar=True)

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        x, _ = batch
        return self(x).softmax(-1).argmax(-1).numpy()  # expect: DEV011

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class ProbeConfidence(Callback):
    """Mean max-probability on the same random inputs after every validation."""

    def __init__(self, n=16, seed=123):
        g = torch.Generator().manual_seed(seed)
        self.probe = torch.randn(n, 1, 28, 28, generator=g)  # expect: DEV006
        self.history = []

    def on_validation_epoch_end(self, trainer, pl_module):
        if trainer.sanity_checking:
            return
        with torch.no_grad():
            probs = pl_module(self.probe).softmax(-1)
        conf = probs.max(-1).values.mean().item()
        self.history.append(conf)
        pl_module.log("probe_confidence", conf)


if __name__ == "__main__":
    L.seed_everything(0)
    train_dl = DataLoader(synthetic_digits(512, 0), batch_size=64, shuffle=True)
    val_dl = DataLoader(synthetic_digits(128, 1), batch_size=128)
    probe = ProbeConfidence()
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[probe])
    model = LitNet()
    trainer.fit(model, train_dl, val_dl)
    print("probe confidence per epoch:", probe.history)

    batches = trainer.predict(model, val_dl)
    out = os.path.join(tempfile.mkdtemp(), "predictions.csv")
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["index", "pred"])
        i = 0
        for preds in batches:
            for p in preds:
                w.writerow([i, int(p)])
                i += 1
    print("wrote", out)
