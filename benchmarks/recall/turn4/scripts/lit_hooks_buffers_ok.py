"""LightningModule with state made in hooks the right way: buffers registered in setup, a probe loader
moved by hand, a pos_weight loss held as a submodule, predictions saved after .cpu()."""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChurnModel(L.LightningModule):
    def __init__(self, probe_loader=None, pos_weight=3.0):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 1))
        self.loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([pos_weight]))
        self.probe_loader = probe_loader
        self.test_probs = []

    def setup(self, stage):
        self.register_buffer("feature_scale", torch.ones(24) * 0.5)
        self.register_buffer("confusion", torch.zeros(2, 2, dtype=torch.long))

    def forward(self, x):
        return self.net(x * self.feature_scale).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return self.loss_fn(self(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        pred = (self(x) > 0).long()
        self.confusion += torch.bincount(y.long() * 2 + pred, minlength=4).view(2, 2)

    def on_train_epoch_end(self):
        if self.probe_loader is None:
            return
        with torch.no_grad():
            scores = [self(x.to(self.device)) for x, _ in self.probe_loader]
        self.log("probe/mean_score", torch.cat(scores).mean())

    def test_step(self, batch, batch_idx):
        x, _ = batch
        self.test_probs.append(torch.sigmoid(self(x)).cpu())

    def on_test_epoch_end(self):
        np.save("churn_probs.npy", torch.cat(self.test_probs).numpy())
        self.test_probs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    from torch.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(torch.randn(200, 24), torch.randint(0, 2, (200,)).float())
    dl = DataLoader(ds, batch_size=50)
    trainer = L.Trainer(max_epochs=1, accelerator="auto", devices=1)
    model = ChurnModel(probe_loader=dl)
    trainer.fit(model, dl, dl)
    trainer.test(model, dl)
