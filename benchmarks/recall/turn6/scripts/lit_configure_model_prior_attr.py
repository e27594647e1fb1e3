"""Lightning heteroscedastic regressor whose layers are built lazily in configure_model; a
fixed log-variance prior computed from the feature scales is kept next to them.

Correction (session 34): written as a DEV010 bug, but Lightning runs `configure_model` inside
`strategy.tensor_init_context()`, which enters `with root_device`: the prior is made on the GPU.
A correct look-alike now (turn8's `lit_configure_model_attr_ok.py` found this)."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class HeteroRegressor(L.LightningModule):
    def __init__(self, in_dim=8, hidden=32, feature_scales=None):
        super().__init__()
        self.in_dim, self.hidden = in_dim, hidden
        self.feature_scales = feature_scales or [1.0] * in_dim
        self.body = None

    def configure_model(self):
        if self.body is not None:
            return
        self.body = nn.Sequential(nn.Linear(self.in_dim, self.hidden), nn.SiLU())
        self.mean_head = nn.Linear(self.hidden, 1)
        self.logvar_head = nn.Linear(self.hidden, 1)
        self.logvar_prior = torch.log(torch.tensor(self.feature_scales).pow(2)).mean(0, keepdim=True)

    def forward(self, x):
        h = self.body(x)
        return self.mean_head(h), self.logvar_head(h) + self.logvar_prior

    def training_step(self, batch, batch_idx):
        x, y = batch
        mu, logvar = self(x)
        loss = (0.5 * (logvar + (y - mu) ** 2 / logvar.exp())).mean()
        self.log("train_nll", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        mu, _ = self(x)
        self.log("val_mse", F.mse_loss(mu, y))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def main():
    x = torch.randn(512, 8) * torch.linspace(0.5, 2.0, 8)
    y = x.sum(1, keepdim=True) + torch.randn(512, 1) * x[:, :1].abs()
    train = DataLoader(TensorDataset(x[:448], y[:448]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[448:], y[448:]), batch_size=64)
    model = HeteroRegressor(feature_scales=x.std(0).tolist())
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(model, train, val)


if __name__ == "__main__":
    main()
