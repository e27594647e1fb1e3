"""Lightning transformer encoder for anomaly flags on sensor windows: layers
built in configure_model, pretrained encoder weights loaded when fitting starts,
best F1 threshold picked at the end of every validation epoch."""
import argparse

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class AnomalyFlagger(L.LightningModule):
    def __init__(self, n_features=6, d_model=32, pretrained="", lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = None
        self.val_scores, self.val_labels = [], []

    def configure_model(self):
        if self.encoder is not None:
            return
        self.inp = nn.Linear(self.hparams.n_features, self.hparams.d_model)
        layer = nn.TransformerEncoderLayer(self.hparams.d_model, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.out = nn.Linear(self.hparams.d_model, 1)

    def on_fit_start(self):
        if self.hparams.pretrained:
            state = torch.load(self.hparams.pretrained)  # expect: DEV008
            self.encoder.load_state_dict(state["encoder"])

    def forward(self, x):
        return self.out(self.encoder(self.inp(x)).mean(1)).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.binary_cross_entropy_with_logits(self(x), y.float())
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_scores.append(torch.sigmoid(self(x)))
        self.val_labels.append(y)

    def on_validation_epoch_end(self):
        scores = torch.cat(self.val_scores)
        labels = torch.cat(self.val_labels).bool()
        thresholds = torch.linspace(0.05, 0.95, 19)  # expect: DEV006
        pred = scores[None, :] >= thresholds[:, None]
        tp = (pred & labels).sum(1).float()
        fp = (pred & ~labels).sum(1).float()
        fn = (~pred & labels).sum(1).float()
        f1 = 2 * tp / (2 * tp + fp + fn).clamp_min(1.0)
        best = int(f1.argmax())
        self.log("val_f1", f1[best], prog_bar=True)
        self.log("val_threshold", float(thresholds[best]))
        self.val_scores.clear()
        self.val_labels.clear()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


def windows(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 24, 6, generator=g)
    y = (x[:, :, 0].abs().amax(1) > 2.5).long()
    return TensorDataset(x, y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrained", default="")
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    model = AnomalyFlagger(pretrained=args.pretrained)
    trainer = L.Trainer(max_epochs=args.epochs, accelerator="auto", devices=1, logger=False)
    trainer.fit(model, DataLoader(windows(512, 0), batch_size=32, shuffle=True),
                DataLoader(windows(128, 1), batch_size=64))


if __name__ == "__main__":
    main()
