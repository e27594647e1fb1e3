"""LightningModule that accumulates a confusion matrix over the validation epoch."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


class SceneClassifier(L.LightningModule):
    def __init__(self, n_classes=6):
        super().__init__()
        self.n_classes = n_classes
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def on_validation_epoch_start(self):
        self.confusion = torch.zeros(self.n_classes, self.n_classes, dtype=torch.long)  # expect: DEV010

    def validation_step(self, batch, batch_idx):
        x, y = batch
        pred = self(x).argmax(1)
        idx = y * self.n_classes + pred
        self.confusion += torch.bincount(idx, minlength=self.n_classes ** 2).view(self.n_classes, self.n_classes)

    def on_validation_epoch_end(self):
        per_class = self.confusion.diag().float() / self.confusion.sum(1).clamp(min=1)
        self.log("val/mean_recall", per_class.mean())

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)


if __name__ == "__main__":
    from torch.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(torch.randn(96, 3, 32, 32), torch.randint(0, 6, (96,)))
    L.Trainer(max_epochs=1, accelerator="auto", devices=1).fit(SceneClassifier(), DataLoader(ds, batch_size=16),
                                                                DataLoader(ds, batch_size=16))
