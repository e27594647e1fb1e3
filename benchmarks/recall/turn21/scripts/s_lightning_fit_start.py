"""Lightning fine-tuning of a tabular encoder for a binary label; an optional
projection head is built once the datamodule tells us the feature width, and the
validation AUC is computed at the end of each epoch with scikit-learn."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset


class TabularData(L.LightningDataModule):
    def __init__(self, n_features=12, batch_size=16):
        super().__init__()
        self.n_features = n_features
        self.batch_size = batch_size

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(0)
        x = torch.randn(160, self.n_features, generator=g)
        y = (x[:, 0] + 0.5 * x[:, 1] > 0).float()
        self.train_ds = TensorDataset(x[:128], y[:128])
        self.val_ds = TensorDataset(x[128:], y[128:])

    def train_dataloader(self):
        return DataLoader(self.train_ds, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_ds, batch_size=self.batch_size)


class BinaryFineTuner(L.LightningModule):
    def __init__(self, hidden=32, use_proj=True, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.LazyLinear(hidden)
        self.classifier = nn.Linear(hidden, 1)
        self.proj = nn.Identity()
        self.val_probs, self.val_targets = [], []

    def on_fit_start(self):
        if self.hparams.use_proj:
            width = self.hparams.hidden
            self.proj = nn.Sequential(nn.Linear(width, width), nn.GELU())  # expect: DEV015

    def forward(self, x):
        h = F.relu(self.encoder(x))
        return self.classifier(self.proj(h)).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.binary_cross_entropy_with_logits(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.binary_cross_entropy_with_logits(logits, y))
        self.val_probs.append(torch.sigmoid(logits).detach())
        self.val_targets.append(y.detach().cpu())

    def on_validation_epoch_end(self):
        probs = torch.cat(self.val_probs).numpy()  # expect: DEV011
        targets = torch.cat(self.val_targets).numpy()
        if len(set(targets.tolist())) > 1:
            self.log("val_auc", float(roc_auc_score(targets, probs)))
        self.val_probs.clear()
        self.val_targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    dm = TabularData()
    model = BinaryFineTuner()
    model.encoder(torch.zeros(1, dm.n_features))  # materialise the lazy layer
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(model, datamodule=dm)
