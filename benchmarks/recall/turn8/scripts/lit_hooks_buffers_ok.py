"""Lightning model that builds its mask as a buffer in configure_model, a prior with
device=self.device in on_fit_start, and scores epoch-end outputs after .cpu().

Look-alike of lit_configure_model_band_mask.py and lit_epoch_end_roc_auc.py.
Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/2442
"""
import lightning as L
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score


class BandedEncoder(L.LightningModule):
    def __init__(self, width=4, seq_len=32, dim=48):
        super().__init__()
        self.width, self.seq_len = width, seq_len
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.out = nn.Linear(dim, 1)
        self.scores, self.truth = [], []

    def configure_model(self):
        idx = torch.arange(self.seq_len)
        self.register_buffer("band", (idx[None, :] - idx[:, None]).abs() > self.width)

    def on_fit_start(self):
        self.logit_prior = torch.full((1,), -2.0, device=self.device)

    def forward(self, x):
        h, _ = self.attn(x, x, x, attn_mask=self.band)
        return self.out(h.mean(1)).squeeze(-1) + self.logit_prior

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.binary_cross_entropy_with_logits(self(x), y.float())

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.scores.append(torch.sigmoid(self(x)).detach().cpu())
        self.truth.append(y.cpu())

    def on_validation_epoch_end(self):
        auc = roc_auc_score(torch.cat(self.truth).numpy(), torch.cat(self.scores).numpy())
        self.log("val_auc", float(auc))
        self.scores.clear()
        self.truth.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
