"""Lightning classifier for retinal scans: normalisation constants registered as
buffers, a running per-class confusion kept as a buffer, label-smoothing prior
built on the module's device in on_fit_start, and a class-balanced score at the
end of validation.
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class RetinaClassifier(L.LightningModule):
    def __init__(self, num_classes=4, class_importance=(1.0, 2.0, 2.0, 4.0), lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.register_buffer("mean", torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1))
        self.register_buffer("confusion", torch.zeros(num_classes, num_classes, dtype=torch.long), persistent=False)
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(32, num_classes)
        self.smooth_target = None

    def forward(self, x):
        x = (x - self.mean) / self.std
        return self.head(self.backbone(x))

    def on_fit_start(self):
        n = self.hparams.num_classes
        self.smooth_target = torch.full((n,), 1.0 / n, device=self.device)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        one_hot = F.one_hot(y, self.hparams.num_classes).float()
        target = 0.9 * one_hot + 0.1 * self.smooth_target
        loss = torch.sum(-target * F.log_softmax(logits, -1), dim=-1).mean()
        self.log("train/loss", loss, prog_bar=True)
        return loss

    def on_validation_epoch_start(self):
        self.confusion.zero_()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        n = self.hparams.num_classes
        idx = y * n + logits.argmax(1)
        self.confusion += torch.bincount(idx, minlength=n * n).view(n, n)
        self.log("val/loss", F.cross_entropy(logits, y), prog_bar=True)

    def on_validation_epoch_end(self):
        recall = self.confusion.diag().float() / self.confusion.sum(1).clamp(min=1).float()
        importance = torch.tensor(self.hparams.class_importance, device=self.device)
        balanced = (recall * importance).sum() / importance.sum()
        self.log("val/balanced_recall", balanced, prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def loaders(n=64):
    ds = TensorDataset(torch.rand(n, 3, 32, 32), torch.randint(0, 4, (n,)))
    return DataLoader(ds, batch_size=16, shuffle=True), DataLoader(ds, batch_size=16)


if __name__ == "__main__":
    train_dl, val_dl = loaders()
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(RetinaClassifier(), train_dl, val_dl)
