"""Lightning module done right: a buffer registered in setup, a prior built on the module's device
in on_fit_start, validation outputs detached to the CPU before they are kept, and plotting after
torch.cat of CPU tensors."""
import lightning as L
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset


class Scorer(L.LightningModule):
    def __init__(self, d_in=16, grid=4):
        super().__init__()
        self.grid = grid
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, 1))
        self.val_probs, self.val_targets = [], []

    def setup(self, stage):
        self.register_buffer("feature_scale", torch.linspace(0.5, 1.5, 16))

    def on_fit_start(self):
        self.prior = torch.full((1,), 0.1, device=self.device)

    def forward(self, x):
        return self.net(x * self.feature_scale).squeeze(-1) + self.prior.logit()

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.binary_cross_entropy_with_logits(self(x), y.float())

    def validation_step(self, batch, batch_idx):
        x, y = batch
        p = self(x).sigmoid()
        self.val_probs.append(p.detach().cpu())
        self.val_targets.append(y.cpu())

    def on_validation_epoch_end(self):
        probs, targets = torch.cat(self.val_probs), torch.cat(self.val_targets)
        self.val_probs.clear()
        self.val_targets.clear()
        self.log("val_auc", float(roc_auc_score(targets.numpy(), probs.numpy())))
        fig, ax = plt.subplots()
        ax.hist(probs.numpy(), bins=30)
        fig.savefig(f"probs_{self.current_epoch}.png")
        plt.close(fig)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(2000, 16)
    y = (x.sum(1) > 0).long()
    train = DataLoader(TensorDataset(x[:1600], y[:1600]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[1600:], y[1600:]), batch_size=200)
    L.Trainer(max_epochs=2, accelerator="auto", logger=False).fit(Scorer(), train, val)
