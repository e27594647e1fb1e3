"""Multi-label tagger in Lightning: the positive weights of the BCE loss are computed in setup()
from the datamodule's label matrix."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Tagger(L.LightningModule):
    def __init__(self, labels_matrix, n_in=24, n_tags=6):
        super().__init__()
        self.labels_matrix = labels_matrix
        self.net = nn.Sequential(nn.Linear(n_in, 48), nn.ReLU(), nn.Linear(48, n_tags))

    def setup(self, stage):
        pos = self.labels_matrix.sum(0)
        neg = self.labels_matrix.shape[0] - pos
        self.pos_weight = torch.tensor((neg / pos.clamp(min=1)).tolist())  # expect: DEV010

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.binary_cross_entropy_with_logits(self.net(x), y, pos_weight=self.pos_weight)
        self.log("loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(400, 24)
    y = (torch.rand(400, 6) < 0.15).float()
    loader = DataLoader(TensorDataset(x, y), batch_size=50, shuffle=True)
    L.Trainer(max_epochs=2, accelerator="gpu", devices=1, logger=False).fit(Tagger(y), loader)
