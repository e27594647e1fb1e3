"""Lightning segmentation model that creates its per-split torchmetrics in setup and keeps them in
a plain dict, so Lightning never moves them.

Thread: https://github.com/Lightning-AI/torchmetrics/issues/531 (Metric not moved to device: only a
metric that is a child module follows the model); https://github.com/Lightning-AI/torchmetrics/issues/917.
"""
import lightning as L
import torch
import torch.nn as nn
from torchmetrics.classification import MulticlassJaccardIndex


class TinySeg(L.LightningModule):
    def __init__(self, n_cls=4):
        super().__init__()
        self.n_cls = n_cls
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, n_cls, 1))

    def setup(self, stage):
        self.iou = {"val": MulticlassJaccardIndex(num_classes=self.n_cls)}  # expect: DEV019

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        img, mask = batch
        return nn.functional.cross_entropy(self(img), mask)

    def validation_step(self, batch, batch_idx):
        img, mask = batch
        self.iou["val"].update(self(img).argmax(1), mask)

    def on_validation_epoch_end(self):
        self.log("val_iou", self.iou["val"].compute())
        self.iou["val"].reset()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
