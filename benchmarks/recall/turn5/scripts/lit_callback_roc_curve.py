"""A Lightning callback that collects validation probabilities from the batch outputs and writes an
ROC curve at the end of each validation epoch."""
import json

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score, roc_curve
from torch.utils.data import DataLoader, TensorDataset


class ROCCallback(L.Callback):
    def __init__(self, path="roc.json"):
        self.path = path
        self.probs, self.targets = [], []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        self.probs.append(outputs["probs"])
        self.targets.append(batch[1])

    def on_validation_epoch_end(self, trainer, pl_module):
        probs = torch.cat(self.probs)
        targets = torch.cat(self.targets)
        self.probs, self.targets = [], []
        fpr, tpr, _ = roc_curve(targets, probs)  # expect: DEV011
        auc = roc_auc_score(targets, probs)  # expect: DEV011
        pl_module.log("val_auc", float(auc))
        with open(self.path, "w") as f:
            json.dump({"fpr": fpr.tolist(), "tpr": tpr.tolist(), "epoch": trainer.current_epoch}, f)


class FraudNet(L.LightningModule):
    def __init__(self, d_in=30):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.binary_cross_entropy_with_logits(self(x), y.float())

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.binary_cross_entropy_with_logits(logits, y.float()))
        return {"probs": logits.sigmoid()}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(4000, 30)
    y = (x[:, 0] + 0.5 * x[:, 1] > 1.2).long()
    train = DataLoader(TensorDataset(x[:3000], y[:3000]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[3000:], y[3000:]), batch_size=256)
    trainer = L.Trainer(max_epochs=3, accelerator="auto", callbacks=[ROCCallback()], logger=False)
    trainer.fit(FraudNet(), train, val)
