import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


class DefaultRiskModel(L.LightningModule):
    def __init__(self, n_features, pos_weight):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, 1))
        self.pos_weight = pos_weight.reshape(1)  # expect: DEV010
        self.val_probs, self.val_targets = [], []

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.binary_cross_entropy_with_logits(self(x), y, pos_weight=self.pos_weight)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_probs.append(torch.sigmoid(self(x)))
        self.val_targets.append(y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
