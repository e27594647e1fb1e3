"""LightningModule that stays device-agnostic: buffers, self.device, type_as and .cpu() before numpy."""
import lightning.pytorch as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LitDenoiser(pl.LightningModule):
    def __init__(self, dim=32, noise_std=0.1, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Linear(dim, 16), nn.ReLU())
        self.decoder = nn.Linear(16, dim)
        self.register_buffer("feature_scale", torch.linspace(0.5, 1.5, dim))
        self.val_errors = []

    def forward(self, x):
        return self.decoder(self.encoder(x * self.feature_scale))

    def training_step(self, batch, batch_idx):
        (x,) = batch
        noisy = x + self.hparams.noise_std * torch.randn_like(x)
        mask = torch.rand(x.shape, device=self.device) > 0.1
        loss = F.mse_loss(self(noisy * mask), x)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        err = (self(x) - x).pow(2).mean(dim=1)
        self.val_errors.append(err.detach().cpu().numpy())
        offset = torch.zeros(x.size(0), 1).type_as(x)
        self.log("val_shifted", (err.unsqueeze(1) + offset).mean())

    def on_validation_epoch_end(self):
        self.val_errors.clear()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    data = torch.randn(64, 32)
    trainer = pl.Trainer(max_epochs=1, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(LitDenoiser(), DataLoader(TensorDataset(data), batch_size=16), DataLoader(TensorDataset(data[:16]), batch_size=16))
