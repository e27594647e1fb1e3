"""Correct look-alike: a Lightning classifier whose head is built in
configure_model, with normalisation stats and class weights registered as
buffers, metrics in a MetricCollection, an EMA callback that copies the module
in on_fit_start, and epoch-end NumPy work done on .cpu() copies.

Written against "CrossEntropyLoss with weights" (pytorch-lightning#2984),
"Add feature Exponential Moving Average (EMA)" (#10914), "Expected all tensors
to be on the same device" (torchmetrics#340) and "validation_epoch_end needs to
return CUDA tensors" (#2442).
"""
import copy

import lightning as L
import numpy as np
import torch
import torch.nn as nn
from lightning.pytorch.callbacks import Callback
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score

N_FEATS, N_CLASSES = 10, 4


class Classifier(L.LightningModule):
    def __init__(self, feature_stats, class_counts, lr=2e-3):
        super().__init__()
        self.save_hyperparameters(ignore=["feature_stats", "class_counts"])
        stats = torch.tensor(feature_stats, dtype=torch.float32)
        self.register_buffer("mu", stats[0])
        self.register_buffer("sigma", stats[1])
        counts = torch.tensor(class_counts, dtype=torch.float32).clamp(min=1)
        self.criterion = nn.CrossEntropyLoss(weight=counts.sum() / (N_CLASSES * counts))
        self.val_metrics = MetricCollection({"acc": MulticlassAccuracy(num_classes=N_CLASSES),
                                             "f1": MulticlassF1Score(num_classes=N_CLASSES)}, prefix="val_")
        self.body = None
        self.head = None
        self._val_probs = []

    def configure_model(self):
        if self.body is not None:
            return
        self.body = nn.Sequential(nn.Linear(N_FEATS, 64), nn.ReLU())
        self.head = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.head(self.body((x - self.mu) / self.sigma))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.criterion(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.val_metrics.update(logits, y)
        self._val_probs.append(logits.softmax(-1).detach().cpu())

    def on_validation_epoch_end(self):
        self.log_dict(self.val_metrics.compute())
        self.val_metrics.reset()
        probs = torch.cat(self._val_probs).numpy()
        self.log("val_entropy", float(-(probs * np.log(probs + 1e-9)).sum(1).mean()))
        self._val_probs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class HeadEMA(Callback):
    def __init__(self, decay=0.99):
        self.decay = decay
        self.ema_head = None

    def on_fit_start(self, trainer, pl_module):
        self.ema_head = copy.deepcopy(pl_module.head).requires_grad_(False)

    @torch.no_grad()
    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        for e, p in zip(self.ema_head.parameters(), pl_module.head.parameters()):
            e.lerp_(p, 1.0 - self.decay)

    @torch.no_grad()
    def on_validation_epoch_end(self, trainer, pl_module):
        if self.ema_head is None:
            return
        probe = torch.randn(32, 64, device=pl_module.device)
        pl_module.log("ema_head_gap", (self.ema_head(probe) - pl_module.head(probe)).abs().mean())


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    x = torch.randn(800, N_FEATS, generator=g) * 2 + 1
    y = (x[:, 0] + x[:, 1] > 2).long() + (x[:, 2] > 1).long() * 2
    stats = [x[:640].mean(0).tolist(), x[:640].std(0).tolist()]
    counts = torch.bincount(y[:640], minlength=N_CLASSES).tolist()
    train = DataLoader(TensorDataset(x[:640], y[:640]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[640:], y[640:]), batch_size=64)
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[HeadEMA()])
    trainer.fit(Classifier(stats, counts), train, val)
