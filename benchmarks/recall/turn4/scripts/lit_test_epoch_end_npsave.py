"""LightningModule that writes its test-set probabilities to a .npy file at the end of testing."""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class FraudScorer(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 1))
        self.test_probs = []

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.binary_cross_entropy_with_logits(self(x), y)

    def test_step(self, batch, batch_idx):
        x, _ = batch
        self.test_probs.append(torch.sigmoid(self(x)))

    def on_test_epoch_end(self):
        np.save("test_probs.npy", torch.cat(self.test_probs))  # expect: DEV011
        self.test_probs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    from torch.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(torch.randn(200, 30), torch.randint(0, 2, (200,)).float())
    trainer = L.Trainer(max_epochs=1, accelerator="auto", devices=1)
    model = FraudScorer()
    trainer.fit(model, DataLoader(ds, batch_size=50))
    trainer.test(model, DataLoader(ds, batch_size=50))
