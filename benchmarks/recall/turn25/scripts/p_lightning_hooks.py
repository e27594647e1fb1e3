"""Skin-lesion classifier in Lightning: ImageNet normalisation inside the module,
per-class recall tracked over the validation epoch, and a class-balanced score
logged at its end.
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LesionClassifier(L.LightningModule):
    def __init__(self, num_classes=4, class_importance=(1.0, 2.0, 2.0, 4.0), lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.pixel_stats = torch.tensor([[0.485, 0.456, 0.406], [0.229, 0.224, 0.225]]).view(2, 1, 3, 1, 1)  # expect: DEV010
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(32, num_classes)
        self._val_hits = []

    def forward(self, x):
        x = (x - self.pixel_stats[0]) / self.pixel_stats[1]
        return self.head(self.backbone(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train/loss", loss, prog_bar=True)
        return loss

    def on_validation_epoch_start(self):
        self._val_hits.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val/loss", F.cross_entropy(logits, y), prog_bar=True)
        self._val_hits.append((logits.argmax(1), y))

    def on_validation_epoch_end(self):
        preds = torch.cat([p for p, _ in self._val_hits])
        target = torch.cat([t for _, t in self._val_hits])
        n = self.hparams.num_classes
        correct = torch.bincount(target[preds == target], minlength=n).float()
        support = torch.bincount(target, minlength=n).clamp(min=1).float()
        recall = correct / support
        importance = torch.tensor(self.hparams.class_importance)  # expect: DEV006
        balanced = (recall * importance).sum() / importance.sum()
        self.log("val/balanced_recall", balanced, prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def loaders(n=64):
    x = torch.rand(n, 3, 32, 32)
    y = torch.randint(0, 4, (n,))
    ds = TensorDataset(x, y)
    return DataLoader(ds, batch_size=16, shuffle=True), DataLoader(ds, batch_size=16)


if __name__ == "__main__":
    train_dl, val_dl = loaders()
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(LesionClassifier(), train_dl, val_dl)
