"""Lightning kernel classifier: an encoder followed by random Fourier features. The frequencies are
drawn in on_fit_start so that they follow the seed set by seed_everything.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/3674 (a tensor kept as a plain
attribute of the LightningModule is not moved to the expected device).
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class RFFClassifier(L.LightningModule):
    def __init__(self, d_in=20, d_feat=32, n_rff=256, sigma=2.0, n_classes=3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Linear(d_in, d_feat), nn.Tanh())
        self.head = nn.Linear(2 * n_rff, n_classes)

    def on_fit_start(self):
        hp = self.hparams
        self.omega = torch.randn(hp.d_feat, hp.n_rff) / hp.sigma  # expect: DEV010

    def forward(self, x):
        z = self.encoder(x) @ self.omega
        return self.head(torch.cat([z.cos(), z.sin()], dim=-1) / self.hparams.n_rff ** 0.5)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_acc", (self(x).argmax(-1) == y).float().mean())

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)


def make_loader(n, shuffle):
    x = torch.randn(n, 20)
    y = (x[:, 0] * x[:, 1] > 0).long() + (x[:, 2] > 1).long()
    return DataLoader(TensorDataset(x, y), batch_size=64, shuffle=shuffle)


if __name__ == "__main__":
    L.seed_everything(7)
    trainer = L.Trainer(max_epochs=5, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(RFFClassifier(), make_loader(2048, True), make_loader(512, False))
