"""Imbalanced tabular classification in Lightning: class weights registered
in setup(), torchmetrics held on the module, a per-epoch confusion matrix,
a callback that scores a fixed probe batch, and a predict pass.
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.callbacks import Callback
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy


def make_split(n, seed, dim=12):
    g = torch.Generator().manual_seed(seed)
    y = torch.multinomial(torch.tensor([0.75, 0.2, 0.05]), n, replacement=True, generator=g)
    x = torch.randn(n, dim, generator=g) + F.one_hot(y, dim).float() * 2.0
    return TensorDataset(x, y)


class TabularModule(L.LightningModule):
    def __init__(self, train_labels, num_classes=3, lr=3e-3):
        super().__init__()
        self.save_hyperparameters(ignore=["train_labels"])
        self.train_labels = train_labels
        self.net = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, num_classes))
        self.val_acc = MulticlassAccuracy(num_classes=num_classes, average="macro")
        self._val_preds, self._val_targets = [], []

    def setup(self, stage):
        if stage == "fit" and not hasattr(self, "class_weights"):
            counts = torch.bincount(self.train_labels, minlength=self.hparams.num_classes).float()
            self.register_buffer("class_weights", counts.sum() / (len(counts) * counts.clamp(min=1)))

    def on_fit_start(self):
        self.print(f"training on {self.device}, class weights {self.class_weights.tolist()}")

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y, weight=self.class_weights)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        preds = self(x).argmax(-1)
        self.val_acc.update(preds, y)
        self._val_preds.append(preds.detach())
        self._val_targets.append(y)

    def on_validation_epoch_end(self):
        preds = torch.cat(self._val_preds).cpu().numpy()
        targets = torch.cat(self._val_targets).cpu().numpy()
        self._val_preds.clear()
        self._val_targets.clear()
        k = self.hparams.num_classes
        cm = np.bincount(k * targets + preds, minlength=k * k).reshape(k, k)
        self.log("val_macro_acc", self.val_acc.compute(), prog_bar=True)
        self.val_acc.reset()
        self.print(cm)

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        x, _ = batch
        return self(x).softmax(-1).cpu()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class ProbeCallback(Callback):
    def __init__(self, probe):
        self.probe = probe
        self.scores = []

    def on_train_epoch_end(self, trainer, pl_module):
        with torch.no_grad():
            probs = pl_module(self.probe.to(pl_module.device)).softmax(-1)
        self.scores.append(probs.max(-1).values.mean().item())


if __name__ == "__main__":
    L.seed_everything(0)
    train_set, val_set = make_split(800, 0), make_split(200, 1)
    model = TabularModule(train_set.tensors[1])
    probe_cb = ProbeCallback(torch.randn(16, 12))
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[probe_cb])
    trainer.fit(model, DataLoader(train_set, batch_size=64, shuffle=True), DataLoader(val_set, batch_size=100))
    probs = torch.cat(trainer.predict(model, DataLoader(val_set, batch_size=100)))
    print("probe confidence", probe_cb.scores, "predicted class counts", probs.argmax(-1).bincount().tolist())
