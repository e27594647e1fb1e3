"""LightningModule that collects validation outputs and computes a ROC AUC at the end of the epoch."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset


class FraudDetector(L.LightningModule):
    def __init__(self, n_features=30):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 1))
        self.val_scores = []
        self.val_targets = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.binary_cross_entropy_with_logits(self.model(x).squeeze(-1), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_scores.append(torch.sigmoid(self.model(x).squeeze(-1)))
        self.val_targets.append(y)

    def on_validation_epoch_end(self):
        scores = torch.cat(self.val_scores).numpy()  # expect: DEV011
        targets = torch.cat(self.val_targets).cpu().numpy()
        self.log("val_auc", roc_auc_score(targets, scores))
        self.val_scores.clear()
        self.val_targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(4000, 30)
    y = (x[:, 0] + 0.5 * x[:, 1] > 1.2).float()
    train = DataLoader(TensorDataset(x[:3200], y[:3200]), batch_size=256, shuffle=True)
    val = DataLoader(TensorDataset(x[3200:], y[3200:]), batch_size=256)
    L.Trainer(max_epochs=5, accelerator="auto", devices=1).fit(FraudDetector(), train, val)
