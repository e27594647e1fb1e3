"""Multi-label audio tagger in Lightning: one torchmetrics object kept in a
plain dict (the other one set as an attribute), and a scikit-learn mAP computed
in on_validation_epoch_end from the tensors gathered during validation.

Written from "Expected all tensors to be on the same device" (torchmetrics#340),
"Torchmetric bug?" (metrics that Lightning never moved) and "validation_epoch_end
needs to return CUDA tensors" / "CUDA - numpy related copy error?": a dict is not
a ModuleDict, so only the attribute metric follows the module to the GPU, and the
validation outputs stay on the GPU until someone calls .cpu().
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import average_precision_score
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MultilabelF1Score, MultilabelPrecision

N_MELS, FRAMES, N_TAGS = 32, 40, 8


def toy_clips(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 1, N_MELS, FRAMES, generator=g)
    y = (torch.rand(n, N_TAGS, generator=g) < 0.25).float()
    x[:, :, :N_TAGS, :] += y[:, None, :, None] * 1.5
    return TensorDataset(x, y)


class AudioTagger(L.LightningModule):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(32, N_TAGS)
        self.val_precision = MultilabelPrecision(num_labels=N_TAGS, average="macro")
        self.val_metrics = {"f1": MultilabelF1Score(num_labels=N_TAGS, average="macro")}  # expect: DEV019
        self._scores, self._targets = [], []

    def forward(self, x):
        return self.head(self.conv(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.binary_cross_entropy_with_logits(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        probs = torch.sigmoid(self(x))
        self.val_precision.update(probs, y.int())
        for metric in self.val_metrics.values():
            metric.update(probs, y.int())
        self._scores.append(probs.detach())
        self._targets.append(y)

    def on_validation_epoch_end(self):
        self.log("val_precision", self.val_precision.compute())
        self.val_precision.reset()
        for name, metric in self.val_metrics.items():
            self.log(f"val_{name}", metric.compute())
            metric.reset()
        scores = torch.cat(self._scores)
        targets = torch.cat(self._targets)
        mean_ap = average_precision_score(targets.numpy(), scores.numpy(), average="macro")  # expect: DEV011
        self.log("val_mAP", float(mean_ap), prog_bar=True)
        self._scores.clear()
        self._targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    train_loader = DataLoader(toy_clips(192, seed=0), batch_size=32, shuffle=True)
    val_loader = DataLoader(toy_clips(64, seed=1), batch_size=32)
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(AudioTagger(), train_loader, val_loader)
