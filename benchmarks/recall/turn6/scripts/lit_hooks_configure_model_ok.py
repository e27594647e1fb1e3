"""Correct look-alike: a LightningModule that registers its fixed tensors as buffers in
configure_model (before the trainer moves it), makes a per-epoch tensor with
device=self.device, and copies validation errors to the host before NumPy."""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Denoiser(L.LightningModule):
    def __init__(self, dim=16):
        super().__init__()
        self.dim = dim
        self.net = None
        self.errors = []

    def configure_model(self):
        if self.net is not None:
            return
        self.net = nn.Sequential(nn.Linear(self.dim, 64), nn.ReLU(), nn.Linear(64, self.dim))
        self.register_buffer("noise_scale", torch.linspace(0.05, 0.5, self.dim))

    def on_train_epoch_start(self):
        self.epoch_gain = torch.full((self.dim,), 1.0 + 0.1 * self.current_epoch, device=self.device)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        noisy = x + torch.randn_like(x) * self.noise_scale
        loss = F.mse_loss(self.net(noisy) * self.epoch_gain, x * self.epoch_gain)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        noisy = x + torch.randn_like(x) * self.noise_scale
        self.errors.append((self.net(noisy) - x).abs().mean(1).detach().cpu())

    def on_validation_epoch_end(self):
        errs = torch.cat(self.errors).numpy()
        self.log("val_p90", float(np.percentile(errs, 90)))
        self.errors.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def main():
    x = torch.randn(640, 16)
    train = DataLoader(TensorDataset(x[:512]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[512:]), batch_size=64)
    trainer = L.Trainer(max_epochs=2, logger=False, enable_checkpointing=False)
    trainer.fit(Denoiser(), train, val)


if __name__ == "__main__":
    main()
