"""LightningModule hooks done right: a prior registered as a buffer in on_fit_start, metrics as attributes,
layers built in configure_model, epoch-end outputs moved to the host before numpy."""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassAccuracy, MulticlassAUROC


class LitTagger(L.LightningModule):
    def __init__(self, in_dim=64, n_classes=5):
        super().__init__()
        self.save_hyperparameters()
        self.backbone = None
        self.head = None
        self.val_metrics = MetricCollection({"acc": MulticlassAccuracy(n_classes), "auroc": MulticlassAUROC(n_classes)},
                                            prefix="val/")
        self.val_probs = []

    def configure_model(self):
        if self.backbone is not None:
            return
        self.backbone = nn.Sequential(nn.Linear(self.hparams.in_dim, 256), nn.GELU(), nn.LayerNorm(256))
        self.head = nn.Linear(256, self.hparams.n_classes)

    def on_fit_start(self):
        labels = self.trainer.datamodule.train_labels
        counts = torch.bincount(labels, minlength=self.hparams.n_classes).float()
        self.register_buffer("log_prior", torch.log(counts / counts.sum()).to(self.device), persistent=False)

    def forward(self, x):
        return self.head(self.backbone(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x) + self.log_prior, y)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        probs = self(x).softmax(-1)
        self.val_metrics.update(probs, y)
        self.val_probs.append(probs.detach().cpu())

    def on_validation_epoch_end(self):
        self.log_dict(self.val_metrics.compute())
        self.val_metrics.reset()
        probs = torch.cat(self.val_probs).numpy()
        self.print("mean entropy", float(-(probs * np.log(probs + 1e-9)).sum(1).mean()))
        self.val_probs.clear()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)
