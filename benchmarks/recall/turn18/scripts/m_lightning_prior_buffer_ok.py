"""Logit-adjusted long-tail classifier in Lightning (prior kept as a buffer),
with an auxiliary coarse head built in configure_model and AUROC at epoch end."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset

C = 5


def make_data(n=1000, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.multinomial(torch.tensor([0.4, 0.25, 0.15, 0.12, 0.08]), n, replacement=True, generator=g)
    x = torch.randn(n, 16, generator=g) + F.one_hot(y, 16).float() * 2
    return x, y


class Classifier(L.LightningModule):
    def __init__(self, class_counts, tau=1.0, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.ReLU())
        self.fine = nn.Linear(64, C)
        counts = torch.as_tensor(class_counts, dtype=torch.float)
        self.register_buffer("log_prior", torch.log(counts / counts.sum()))
        self.val_probs, self.val_y = [], []

    def configure_model(self):
        if not hasattr(self, "coarse"):
            self.coarse = nn.Linear(64, 2)

    def forward(self, x):
        h = self.net(x)
        logits = self.fine(h)
        if self.training:
            logits = logits + self.hparams.tau * self.log_prior
        return logits, self.coarse(h)

    def training_step(self, batch, _):
        x, y = batch
        fine, coarse = self(x)
        loss = F.cross_entropy(fine, y) + 0.2 * F.cross_entropy(coarse, (y > 1).long())
        self.log("loss", loss)
        return loss

    def validation_step(self, batch, _):
        x, y = batch
        fine, _ = self(x)
        self.val_probs.append(fine.softmax(-1))
        self.val_y.append(y)

    def on_validation_epoch_end(self):
        probs = torch.cat(self.val_probs).float().cpu().numpy()
        y = torch.cat(self.val_y).cpu().numpy()
        self.log("val_auc", float(roc_auc_score(y, probs, multi_class="ovr")))
        self.val_probs.clear()
        self.val_y.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    x, y = make_data()
    counts = torch.bincount(y[:800], minlength=C).tolist()
    train = DataLoader(TensorDataset(x[:800], y[:800]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[800:], y[800:]), batch_size=64)
    trainer = L.Trainer(max_epochs=2, logger=False, enable_checkpointing=False)
    trainer.fit(Classifier(counts), train, val)
