"""Tabular fault classifier in Lightning: feature standardisation stats kept on the
module, class weights computed from the datamodule in on_fit_start.

Written from "CrossEntropyLoss with weights" (Lightning-AI/pytorch-lightning#2984),
"[bug] Set device on LightningModule after fitting" and "RuntimeError: All input
tensors must be on the same device. Received cpu and cuda:0": on_fit_start runs
after the strategy moved the module, so a criterion built there keeps its weight
on the CPU, and a plain tensor attribute set in __init__ is never moved at all.
"""
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_FEATS, N_CLASSES = 12, 5


class FaultData(L.LightningDataModule):
    def __init__(self, n=600, batch_size=64):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, N_FEATS, generator=g) * 3.0 + 1.5
        probs = torch.tensor([0.55, 0.25, 0.1, 0.07, 0.03])
        self.y = torch.multinomial(probs, n, replacement=True, generator=g)
        self.x[:, 0] += self.y.float()
        self.batch_size = batch_size

    @property
    def class_counts(self):
        return torch.bincount(self.y[:480], minlength=N_CLASSES).tolist()

    @property
    def feature_stats(self):
        tr = self.x[:480]
        return [tr.mean(0).tolist(), tr.std(0).tolist()]

    def train_dataloader(self):
        return DataLoader(TensorDataset(self.x[:480], self.y[:480]), batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(TensorDataset(self.x[480:], self.y[480:]), batch_size=self.batch_size)


class FaultClassifier(L.LightningModule):
    def __init__(self, feature_stats, hidden=64, lr=2e-3):
        super().__init__()
        self.save_hyperparameters(ignore=["feature_stats"])
        self.norm = torch.tensor(feature_stats, dtype=torch.float32)  # expect: DEV010
        self.net = nn.Sequential(nn.Linear(N_FEATS, hidden), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, N_CLASSES))
        self.criterion = nn.CrossEntropyLoss()

    def on_fit_start(self):
        counts = torch.tensor(self.trainer.datamodule.class_counts, dtype=torch.float32).clamp(min=1)
        weights = counts.sum() / (N_CLASSES * counts)
        self.criterion = nn.CrossEntropyLoss(weight=weights, label_smoothing=0.05)  # expect: DEV012

    def forward(self, x):
        x = (x - self.norm[0]) / self.norm[1]
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.criterion(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", self.criterion(logits, y))
        self.log("val_acc", (logits.argmax(-1) == y).float().mean())

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    dm = FaultData()
    model = FaultClassifier(dm.feature_stats)
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(model, datamodule=dm)
