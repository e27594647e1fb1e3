"""Lightning regression model that keeps the validation residuals of each epoch and plots their
histogram in on_validation_epoch_end."""
import os

import lightning as L
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class HousePrice(L.LightningModule):
    def __init__(self, d_in=13, out_dir="plots"):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, 1))
        self.out_dir = out_dir
        self.residuals = []

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self(x), y)
        self.log("train_mse", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        pred = self(x)
        self.residuals.append(pred - y)
        self.log("val_mse", F.mse_loss(pred, y))

    def on_validation_epoch_end(self):
        res = torch.cat(self.residuals)
        self.residuals.clear()
        os.makedirs(self.out_dir, exist_ok=True)
        fig, ax = plt.subplots()
        ax.hist(res, bins=40)  # expect: DEV011
        ax.set_title(f"epoch {self.current_epoch}")
        fig.savefig(os.path.join(self.out_dir, f"residuals_{self.current_epoch}.png"))
        plt.close(fig)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(1000, 13)
    y = x @ torch.randn(13) + 0.1 * torch.randn(1000)
    train = DataLoader(TensorDataset(x[:800], y[:800]), batch_size=32, shuffle=True)
    val = DataLoader(TensorDataset(x[800:], y[800:]), batch_size=100)
    L.Trainer(max_epochs=5, accelerator="auto", logger=False).fit(HousePrice(), train, val)
