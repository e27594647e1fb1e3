"""Lightning text classifier with class weights kept in a buffer and an epoch-end AUROC."""
import numpy as np
import lightning as L
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def binary_auroc(scores, labels):
    order = np.argsort(-scores)
    labels = labels[order]
    tps = np.cumsum(labels)
    fps = np.cumsum(1 - labels)
    tpr = tps / max(tps[-1], 1)
    fpr = fps / max(fps[-1], 1)
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


class ToxicityModel(L.LightningModule):
    def __init__(self, vocab_size=5000, dim=64, lr=2e-3):
        super().__init__()
        self.save_hyperparameters()
        self.emb = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.head = nn.Linear(dim, 2)
        self.val_scores, self.val_labels = [], []
        self.register_buffer("class_w", torch.ones(2))

    def forward(self, tokens):
        return self.head(self.emb(tokens))

    def on_fit_start(self):
        labels = self.trainer.datamodule.train_labels if self.trainer.datamodule else self._train_labels
        counts = np.bincount(labels, minlength=2).astype(np.float32)
        self.class_w.copy_(torch.from_numpy(counts.sum() / (2 * counts)))

    def training_step(self, batch, batch_idx):
        tokens, y = batch
        # word dropout made on the module's device
        keep = torch.rand(tokens.shape, device=self.device) > 0.1
        logits = self(tokens * keep)
        loss = F.cross_entropy(logits, y, weight=self.class_w)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        tokens, y = batch
        probs = self(tokens).softmax(-1)[:, 1]
        self.val_scores.append(probs)
        self.val_labels.append(y)

    def on_validation_epoch_end(self):
        scores = torch.cat(self.val_scores).cpu().numpy()
        labels = torch.cat(self.val_labels).cpu().numpy()
        self.log("val_auroc", binary_auroc(scores, labels))
        self.val_scores.clear()
        self.val_labels.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, 5000, (n, 32), generator=g)
    y = (tokens[:, :4].sum(-1) % 5 == 0).long()
    return tokens, y


if __name__ == "__main__":
    tr_x, tr_y = make_split(2000, 0)
    va_x, va_y = make_split(400, 1)
    model = ToxicityModel()
    model._train_labels = tr_y.numpy()
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False)
    trainer.fit(model, DataLoader(TensorDataset(tr_x, tr_y), batch_size=64, shuffle=True),
                DataLoader(TensorDataset(va_x, va_y), batch_size=128))
