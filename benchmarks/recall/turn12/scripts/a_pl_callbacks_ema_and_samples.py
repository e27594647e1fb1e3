"""Lightning VAE with two callbacks: an EMA copy of the decoder made in the
callback's setup hook, and a sample grid drawn from the prior at the end of
each validation epoch.

Written from "Add exponential moving average of model weights via a Lightning
callback" (neural-lam#739: state restored before strategy.setup() moves the
module pins the average to the CPU), "Add feature Exponential Moving Average
(EMA)" (pytorch-lightning#10914) and "RuntimeError: All input tensors must be on
the same device. Received cpu and cuda:0" for noise drawn without a device.
"""
import copy

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.callbacks import Callback
from torch.utils.data import DataLoader, TensorDataset

LATENT, PIX = 8, 64


class LitVAE(L.LightningModule):
    def __init__(self, lr=2e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Linear(PIX, 128), nn.ReLU(), nn.Linear(128, 2 * LATENT))
        self.decoder = nn.Sequential(nn.Linear(LATENT, 128), nn.ReLU(), nn.Linear(128, PIX))

    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.decoder(z), mu, logvar

    def _loss(self, x):
        recon, mu, logvar = self(x)
        rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum") / x.size(0)
        kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=-1))
        return rec + kl

    def training_step(self, batch, batch_idx):
        loss = self._loss(batch[0])
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        self.log("val_loss", self._loss(batch[0]))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class DecoderEMA(Callback):
    def __init__(self, decay=0.995):
        self.decay = decay
        self.ema_decoder = None

    def setup(self, trainer, pl_module, stage):
        if stage == "fit" and self.ema_decoder is None:
            self.ema_decoder = copy.deepcopy(pl_module.decoder).eval()  # expect: DEV016
            self.ema_decoder.requires_grad_(False)

    @torch.no_grad()
    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        for ema_p, p in zip(self.ema_decoder.parameters(), pl_module.decoder.parameters()):
            ema_p.lerp_(p.detach(), 1.0 - self.decay)


class PriorSamples(Callback):
    def __init__(self, n=16):
        self.n = n
        self.last_grid = None

    @torch.no_grad()
    def on_validation_epoch_end(self, trainer, pl_module):
        z = torch.randn(self.n, LATENT)  # expect: DEV006
        samples = torch.sigmoid(pl_module.decoder(z))
        self.last_grid = samples.view(self.n, 8, 8).cpu()
        pl_module.log("sample_mean", samples.mean())


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    data = (torch.rand(512, PIX, generator=g) > 0.7).float()
    train_loader = DataLoader(TensorDataset(data[:448]), batch_size=64, shuffle=True)
    val_loader = DataLoader(TensorDataset(data[448:]), batch_size=64)
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[DecoderEMA(), PriorSamples()])
    trainer.fit(LitVAE(), train_loader, val_loader)
