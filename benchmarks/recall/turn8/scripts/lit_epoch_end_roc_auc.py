"""Lightning binary classifier that keeps validation probabilities in lists and scores them with
scikit-learn at the end of the epoch.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/2442 (validation_epoch_end and
device tensors); https://github.com/wengong-jin/hgraph2graph/issues/40 (np.array over CUDA tensors).
"""
import lightning as L
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score


class FraudNet(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 1))
        self.val_scores, self.val_truth = [], []

    def forward(self, x):
        return self.body(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.binary_cross_entropy_with_logits(self(x), y.float())

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_scores.append(torch.sigmoid(self(x)))
        self.val_truth.append(y)

    def on_validation_epoch_end(self):
        scores = torch.cat(self.val_scores)
        truth = torch.cat(self.val_truth)
        auc = roc_auc_score(truth.cpu(), scores)  # expect: DEV011
        self.log("val_auc", float(auc))
        self.val_scores.clear()
        self.val_truth.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
