"""Self-supervised encoder with a nearest-centroid probe run at the end of each training epoch."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ContrastiveEncoder(L.LightningModule):
    def __init__(self, probe_loader, n_classes=10):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 64))
        self.projector = nn.Linear(64, 32)
        self.probe_loader = probe_loader
        self.n_classes = n_classes

    def training_step(self, batch, batch_idx):
        x, _ = batch
        z1 = F.normalize(self.projector(self.encoder(x + 0.1 * torch.randn_like(x))), dim=-1)
        z2 = F.normalize(self.projector(self.encoder(x + 0.1 * torch.randn_like(x))), dim=-1)
        logits = z1 @ z2.T / 0.2
        return F.cross_entropy(logits, torch.arange(x.size(0), device=self.device))

    def on_train_epoch_end(self):
        feats, labels = [], []
        with torch.no_grad():
            for x, y in self.probe_loader:
                feats.append(self.encoder(x))  # expect: DEV002
                labels.append(y)
        feats, labels = torch.cat(feats), torch.cat(labels)
        centroids = torch.stack([feats[labels == c].mean(0) for c in range(self.n_classes)])
        acc = (torch.cdist(feats, centroids).argmin(1) == labels.to(feats.device)).float().mean()
        self.log("probe/acc", acc)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(640, 32)
    y = torch.randint(0, 10, (640,))
    probe = DataLoader(TensorDataset(x[:200], y[:200]), batch_size=100)
    train = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
    L.Trainer(max_epochs=2, accelerator="auto", devices=1).fit(ContrastiveEncoder(probe), train)
