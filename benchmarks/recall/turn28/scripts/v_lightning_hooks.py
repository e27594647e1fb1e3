"""Multi-label toxicity tagger in Lightning: positive-class weights computed when
fitting starts, macro ROC-AUC at the end of every validation epoch."""
import argparse

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset


class ToxicityTagger(L.LightningModule):
    def __init__(self, vocab_size, n_labels, label_freq, lr=2e-3):
        super().__init__()
        self.save_hyperparameters()
        self.emb = nn.EmbeddingBag(vocab_size, 64, mode="mean")
        self.head = nn.Linear(64, n_labels)
        self.val_logits, self.val_targets = [], []

    def forward(self, tokens):
        return self.head(self.emb(tokens))

    def on_fit_start(self):
        self.pos_weight = torch.tensor([(1.0 - f) / f for f in self.hparams.label_freq])  # expect: DEV010

    def training_step(self, batch, batch_idx):
        tokens, y = batch
        logits = self(tokens)
        loss = F.binary_cross_entropy_with_logits(logits, y.float(), pos_weight=self.pos_weight)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        tokens, y = batch
        logits = self(tokens)
        self.val_logits.append(logits.detach())
        self.val_targets.append(y)

    def on_validation_epoch_end(self):
        logits = torch.cat(self.val_logits)
        targets = torch.cat(self.val_targets)
        probs = torch.sigmoid(logits).numpy()  # expect: DEV011
        auc = roc_auc_score(targets.cpu().numpy(), probs, average="macro")
        self.log("val_auc", auc, prog_bar=True)
        self.val_logits.clear()
        self.val_targets.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def toy_data(n, vocab, n_labels, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, vocab, (n, 12), generator=g)
    y = (tokens[:, :n_labels] % 5 == 0).long()
    return TensorDataset(tokens, y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--accelerator", default="auto")
    args = parser.parse_args()
    vocab, n_labels = 500, 3
    train, val = toy_data(800, vocab, n_labels, 0), toy_data(200, vocab, n_labels, 1)
    freq = train.tensors[1].float().mean(0).clamp_min(1e-3).tolist()
    model = ToxicityTagger(vocab, n_labels, freq)
    trainer = L.Trainer(max_epochs=args.epochs, accelerator=args.accelerator, devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(model, DataLoader(train, batch_size=32, shuffle=True), DataLoader(val, batch_size=64))


if __name__ == "__main__":
    main()
