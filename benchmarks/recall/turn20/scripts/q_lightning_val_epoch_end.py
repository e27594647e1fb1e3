"""Lightning classifier that draws a confusion matrix at the end of each validation epoch."""
import lightning as L
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(L.LightningModule):
    def __init__(self, in_dim=10, n_classes=3, lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, n_classes))
        self.val_preds = []
        self.val_targets = []

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y), prog_bar=True)
        self.val_preds.append(logits.argmax(dim=-1))
        self.val_targets.append(y)

    def on_validation_epoch_end(self):
        preds = torch.cat(self.val_preds).numpy()  # expect: DEV011
        targets = torch.cat(self.val_targets).cpu().numpy()
        k = self.hparams.n_classes
        cm = np.zeros((k, k), dtype=int)
        np.add.at(cm, (targets, preds), 1)
        fig, ax = plt.subplots(figsize=(3, 3))
        ax.imshow(cm, cmap="Blues")
        fig.savefig(f"confmat_{self.current_epoch}.png")
        plt.close(fig)
        self.val_preds.clear()
        self.val_targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def loaders():
    x = torch.randn(200, 10)
    y = torch.randint(0, 3, (200,))
    ds = TensorDataset(x, y)
    return DataLoader(ds, batch_size=32, shuffle=True), DataLoader(ds, batch_size=64)


if __name__ == "__main__":
    train_dl, val_dl = loaders()
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(LitClassifier(), train_dl, val_dl)
