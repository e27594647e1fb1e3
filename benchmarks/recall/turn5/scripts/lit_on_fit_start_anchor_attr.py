"""Keypoint-offset regression in Lightning: a grid of anchor points is built once in on_fit_start
(after Lightning has put the module on its device) and added to the predicted offsets."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class AnchorRegressor(L.LightningModule):
    def __init__(self, grid=8, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.backbone = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(grid))
        self.offsets = nn.Conv2d(16, 2, 1)

    def on_fit_start(self):
        g = self.hparams.grid
        ys, xs = torch.meshgrid(torch.linspace(0, 1, g), torch.linspace(0, 1, g), indexing="ij")
        self.anchors = torch.stack([xs, ys])  # expect: DEV010

    def forward(self, img):
        return self.anchors + self.offsets(self.backbone(img)).tanh() / self.hparams.grid

    def training_step(self, batch, batch_idx):
        img, target = batch
        loss = F.smooth_l1_loss(self(img), target)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        img, target = batch
        self.log("val_loss", F.smooth_l1_loss(self(img), target), prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def loaders(grid=8):
    img = torch.rand(512, 1, 32, 32)
    target = torch.rand(512, 2, grid, grid)
    ds = TensorDataset(img, target)
    return DataLoader(ds, batch_size=32, shuffle=True), DataLoader(ds, batch_size=64)


if __name__ == "__main__":
    train_loader, val_loader = loaders()
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False)
    trainer.fit(AnchorRegressor(), train_loader, val_loader)
