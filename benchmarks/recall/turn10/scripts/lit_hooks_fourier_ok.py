"""Correct look-alike: a Lightning kernel classifier whose hooks create what they need where the
module already is. on_fit_start draws the Fourier frequencies with device=self.device, the head is
built in configure_model, the per-epoch confusion matrix is made with device=self.device, and the
epoch-end hook copies the collected scores to the host before NumPy sees them.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/7023 (All input tensors must be on
the same device; fixed by creating tensors on the module's device).
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class RFFClassifier(L.LightningModule):
    def __init__(self, d_in=20, d_feat=32, n_rff=256, sigma=2.0, n_classes=3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Linear(d_in, d_feat), nn.Tanh())
        self.register_buffer("omega", torch.empty(d_feat, n_rff), persistent=False)
        self.head = None
        self.val_scores, self.val_labels = [], []

    def configure_model(self):
        if self.head is None:
            self.head = nn.Linear(2 * self.hparams.n_rff, self.hparams.n_classes)

    def on_fit_start(self):
        hp = self.hparams
        self.omega = torch.randn(hp.d_feat, hp.n_rff, device=self.device) / hp.sigma

    def forward(self, x):
        z = self.encoder(x) @ self.omega
        return self.head(torch.cat([z.cos(), z.sin()], dim=-1) / self.hparams.n_rff ** 0.5)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def on_validation_epoch_start(self):
        c = self.hparams.n_classes
        self.confusion = torch.zeros(c, c, dtype=torch.long, device=self.device)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        probs = self(x).softmax(-1)
        self.confusion.index_put_((y, probs.argmax(-1)), torch.ones_like(y), accumulate=True)
        self.val_scores.append(probs.max(-1).values)
        self.val_labels.append(y)

    def on_validation_epoch_end(self):
        scores = torch.cat(self.val_scores).cpu().numpy()
        labels = torch.cat(self.val_labels).cpu().numpy()
        self.log("val_conf_median", float(np.median(scores)))
        self.log("val_acc", (self.confusion.diag().sum() / self.confusion.sum()).item())
        counts = np.bincount(labels, minlength=self.hparams.n_classes)
        self.log("val_label_balance", float(counts.min() / max(counts.max(), 1)))
        self.val_scores.clear()
        self.val_labels.clear()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)


def make_loader(n, shuffle):
    x = torch.randn(n, 20)
    y = (x[:, 0] * x[:, 1] > 0).long() + (x[:, 2] > 1).long()
    return DataLoader(TensorDataset(x, y), batch_size=64, shuffle=shuffle)


if __name__ == "__main__":
    L.seed_everything(7)
    trainer = L.Trainer(max_epochs=5, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(RFFClassifier(), make_loader(2048, True), make_loader(512, False))
