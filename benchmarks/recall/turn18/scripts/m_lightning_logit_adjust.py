"""Long-tailed classification with logit adjustment (Menon et al.) in Lightning.

The class prior is estimated from the training labels once fit starts, and
added (scaled by tau) to the logits during training.
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 5


class LongTailData(L.LightningDataModule):
    def __init__(self, batch_size=64):
        super().__init__()
        self.batch_size = batch_size

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(0)
        probs = torch.tensor([0.5, 0.25, 0.12, 0.08, 0.05])
        y = torch.multinomial(probs, 1200, replacement=True, generator=g)
        x = torch.randn(1200, 20, generator=g) + F.one_hot(y, 20).float() * 2
        self.train_labels = y[:1000]
        self.train_set = TensorDataset(x[:1000], y[:1000])
        self.val_set = TensorDataset(x[1000:], y[1000:])

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size)


class LogitAdjustedClassifier(L.LightningModule):
    def __init__(self, tau=1.0, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, NUM_CLASSES))
        self.log_prior = None
        self.val_probs, self.val_targets = [], []

    def on_fit_start(self):
        labels = self.trainer.datamodule.train_labels
        counts = torch.bincount(labels, minlength=NUM_CLASSES).float()
        self.log_prior = torch.log(counts / counts.sum())  # expect: DEV010

    def forward(self, x):
        logits = self.net(x)
        if self.training and self.log_prior is not None:
            logits = logits + self.hparams.tau * self.log_prior
        return logits

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.val_probs.append(F.softmax(logits, dim=-1))
        self.val_targets.append(y)
        self.log("val_loss", F.cross_entropy(logits, y), prog_bar=True)

    def on_validation_epoch_end(self):
        probs = torch.cat(self.val_probs)
        targets = torch.cat(self.val_targets)
        auc = roc_auc_score(targets.numpy(), probs.numpy(), multi_class="ovr")  # expect: DEV011
        self.log("val_auc", auc, prog_bar=True)
        self.val_probs.clear()
        self.val_targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    L.seed_everything(0)
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(LogitAdjustedClassifier(tau=1.0), datamodule=LongTailData())
