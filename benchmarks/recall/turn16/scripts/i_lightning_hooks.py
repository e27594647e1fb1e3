"""LightningModule for an imbalanced 1-D signal classification task.
Class weights come from the datamodule once fitting starts; a confusion
matrix is printed at the end of every validation epoch.
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class SignalDataModule(L.LightningDataModule):
    def __init__(self, n_train=600, n_val=200, batch_size=32):
        super().__init__()
        self.n_train, self.n_val, self.batch_size = n_train, n_val, batch_size

    def _make(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        y = torch.multinomial(torch.tensor([0.7, 0.2, 0.1]), n, replacement=True, generator=g)
        t = torch.linspace(0, 1, 64)
        freq = (y + 1).float().unsqueeze(1) * 3
        x = torch.sin(2 * np.pi * freq * t) + 0.3 * torch.randn(n, 64, generator=g)
        return TensorDataset(x.unsqueeze(1), y)

    def setup(self, stage=None):
        self.train_set = self._make(self.n_train, 0)
        self.val_set = self._make(self.n_val, 1)

    def class_counts(self):
        return np.bincount(self.train_set.tensors[1].numpy(), minlength=3)

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=64)


class SignalClassifier(L.LightningModule):
    def __init__(self, num_classes=3, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(
            nn.Conv1d(1, 16, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
            nn.Flatten(), nn.Linear(32, num_classes),
        )
        self.criterion = nn.CrossEntropyLoss()
        self._val_logits, self._val_labels = [], []

    def forward(self, x):
        return self.net(x)

    def on_fit_start(self):
        counts = self.trainer.datamodule.class_counts()
        weights = torch.tensor(counts.sum() / (len(counts) * counts), dtype=torch.float32)
        self.print("class weights:", weights.tolist())
        self.criterion = nn.CrossEntropyLoss(weight=weights)  # expect: DEV012

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.criterion(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", self.criterion(logits, y), prog_bar=True)
        self._val_logits.append(logits)
        self._val_labels.append(y)

    def on_validation_epoch_end(self):
        logits = torch.cat(self._val_logits)
        labels = torch.cat(self._val_labels)
        self._val_logits.clear()
        self._val_labels.clear()
        k = self.hparams.num_classes
        cm = np.zeros((k, k), dtype=np.int64)
        np.add.at(cm, (labels.numpy(), logits.argmax(1).numpy()), 1)  # expect: DEV011
        recall = cm.diagonal() / np.maximum(cm.sum(1), 1)
        self.log("val_balanced_acc", float(recall.mean()))
        self.print(cm)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    L.seed_everything(0)
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(SignalClassifier(), datamodule=SignalDataModule())
