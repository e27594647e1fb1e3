"""Multi-label tagging with Lightning: pos_weight from the training split,
head built lazily in configure_model, per-tag AUC-ish summary at epoch end."""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.callbacks import Callback
from torch.utils.data import DataLoader, TensorDataset

N_TAGS = 5


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    rates = torch.tensor([0.4, 0.2, 0.1, 0.05, 0.02])
    y = (torch.rand(n, N_TAGS, generator=g) < rates).float()
    x[:, :N_TAGS] += 2 * y
    return TensorDataset(x, y)


class LitTagger(L.LightningModule):
    def __init__(self, in_dim=16, hidden=64, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU())
        self.head = None
        self.register_buffer("pos_weight", torch.ones(N_TAGS))
        self.val_scores, self.val_targets = [], []

    def configure_model(self):
        if self.head is None:
            self.head = nn.Linear(self.hparams.hidden, N_TAGS)

    def on_fit_start(self):
        y = self.trainer.datamodule.train_set.tensors[1]
        pos = y.sum(0)
        self.pos_weight.copy_((len(y) - pos) / pos.clamp(min=1))

    def forward(self, x):
        return self.head(self.encoder(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.binary_cross_entropy_with_logits(self(x), y, pos_weight=self.pos_weight)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        scores = torch.sigmoid(self(x))
        self.val_scores.append(scores.detach())
        self.val_targets.append(y)
        return {"scores": scores}

    def on_validation_epoch_end(self):
        scores = torch.cat(self.val_scores).cpu().numpy()
        targets = torch.cat(self.val_targets).cpu().numpy()
        self.val_scores.clear()
        self.val_targets.clear()
        sep = [scores[targets[:, k] == 1, k].mean() - scores[targets[:, k] == 0, k].mean()
               if targets[:, k].any() else 0.0 for k in range(N_TAGS)]
        self.log("val_separation", float(np.mean(sep)))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class TagData(L.LightningDataModule):
    def setup(self, stage=None):
        self.train_set, self.val_set = make_split(3000, 0), make_split(500, 1)

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=128, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=250)


class ThresholdReport(Callback):
    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        if batch_idx == 0 and trainer.is_global_zero:
            frac = (outputs["scores"] > 0.5).float().mean(0).detach().cpu().numpy()
            print("\nfraction above 0.5 per tag:", np.round(frac, 3))


if __name__ == "__main__":
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[ThresholdReport()])
    trainer.fit(LitTagger(), datamodule=TagData())
    print({k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})
