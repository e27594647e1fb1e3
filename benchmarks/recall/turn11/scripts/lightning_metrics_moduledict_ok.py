"""Look-alike of lightning_metrics_plain_dict.py and lightning_callback_val_preds_numpy.py: the
metrics sit in an nn.ModuleDict (Lightning moves them with the module), the mixup weights are made
with device=self.device, and the callback copies confidences to the host before NumPy.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/2585 (About "Init tensors using
type_as": new tensors in a LightningModule take the device of the module or of an input).
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score

N_BANDS, N_CLASSES = 12, 5


class ConfidenceLog(L.Callback):
    def __init__(self):
        self.conf = []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx,
                                dataloader_idx=0):
        with torch.no_grad():
            probs = pl_module(batch[0]).softmax(-1)
        self.conf.append(probs.max(-1).values.cpu().numpy())

    def on_validation_epoch_end(self, trainer, pl_module):
        print("mean confidence", float(np.concatenate(self.conf).mean()))
        self.conf = []


class LandCover(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_BANDS, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))
        self.val_metrics = nn.ModuleDict({"acc": MulticlassAccuracy(num_classes=N_CLASSES),
                                          "f1": MulticlassF1Score(num_classes=N_CLASSES)})

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        lam = torch.distributions.Beta(0.4, 0.4).sample((x.size(0), 1)).to(self.device)
        perm = torch.randperm(x.size(0), device=self.device)
        logits = self(lam * x + (1 - lam) * x[perm])
        lam = lam.squeeze(1)
        loss = (lam * F.cross_entropy(logits, y, reduction="none")
                + (1 - lam) * F.cross_entropy(logits, y[perm], reduction="none")).mean()
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        preds = self(x).argmax(-1)
        for metric in self.val_metrics.values():
            metric.update(preds, y)

    def on_validation_epoch_end(self):
        self.log_dict({f"val_{k}": m.compute() for k, m in self.val_metrics.items()})
        for metric in self.val_metrics.values():
            metric.reset()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-3)


if __name__ == "__main__":
    y = torch.randint(0, N_CLASSES, (800,))
    x = torch.randn(800, N_BANDS) + y[:, None].float() * 0.5
    train = DataLoader(TensorDataset(x[:640], y[:640]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[640:], y[640:]), batch_size=64)
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[ConfidenceLog()])
    trainer.fit(LandCover(), train, val)
