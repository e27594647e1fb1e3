"""LightningModule for an imbalanced classification task: class weights, validation predictions gathered for a report."""
import lightning.pytorch as pl
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(pl.LightningModule):
    def __init__(self, class_counts, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, len(class_counts)))
        counts = torch.tensor(class_counts, dtype=torch.float)
        self.class_weights = counts.sum() / (len(counts) * counts)  # expect: DEV010
        self.val_preds, self.val_targets = [], []

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y, weight=self.class_weights)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y))
        self.val_preds.append(logits.argmax(dim=1).numpy())  # expect: DEV011
        self.val_targets.append(y.cpu().numpy())

    def on_validation_epoch_end(self):
        preds, targets = np.concatenate(self.val_preds), np.concatenate(self.val_targets)
        self.log("val_acc", float((preds == targets).mean()))
        self.val_preds.clear()
        self.val_targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    X, y = torch.randn(64, 16), torch.randint(0, 3, (64,))
    train_dl = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
    val_dl = DataLoader(TensorDataset(X[:32], y[:32]), batch_size=16)
    model = LitClassifier(class_counts=[50, 10, 4])
    trainer = pl.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(model, train_dl, val_dl)
