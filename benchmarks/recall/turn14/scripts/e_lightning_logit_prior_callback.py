"""Long-tailed tabular classification with Lightning.

Logit adjustment: the model adds log p(y) of the training split to its logits,
computed once the datamodule is ready. A callback collects validation
predictions and logs a confusion matrix at the end of each validation epoch.
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.callbacks import Callback
from torch.utils.data import DataLoader, TensorDataset


class TailDataModule(L.LightningDataModule):
    def __init__(self, n_features=12, n_classes=4, batch_size=64):
        super().__init__()
        self.n_features, self.n_classes, self.batch_size = n_features, n_classes, batch_size

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(0)
        probs = torch.tensor([0.7, 0.2, 0.07, 0.03])
        def split(n):
            y = torch.multinomial(probs, n, replacement=True, generator=g)
            x = torch.randn(n, self.n_features, generator=g)
            x[:, : self.n_classes] += F.one_hot(y, self.n_classes) * 1.5
            return TensorDataset(x, y)
        self.train_set, self.val_set = split(2000), split(400)
        self.train_labels = self.train_set.tensors[1]

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=256)


class LitTail(L.LightningModule):
    def __init__(self, n_features=12, n_classes=4, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, n_classes))
        self.log_prior = None

    def on_fit_start(self):
        labels = self.trainer.datamodule.train_labels
        counts = torch.bincount(labels, minlength=self.hparams.n_classes).float()
        self.log_prior = torch.log(counts / counts.sum())  # expect: DEV010

    def forward(self, x):
        logits = self.net(x)
        if self.log_prior is not None:
            logits = logits + self.log_prior
        return logits

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y), prog_bar=True)
        return {"preds": logits.argmax(-1)}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class ConfusionMatrixCallback(Callback):
    def __init__(self, n_classes):
        self.n_classes = n_classes
        self.preds, self.targets = [], []

    def on_validation_epoch_start(self, trainer, pl_module):
        self.preds, self.targets = [], []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        self.preds.append(outputs["preds"])
        self.targets.append(batch[1])

    def on_validation_epoch_end(self, trainer, pl_module):
        preds = torch.cat(self.preds).numpy()  # expect: DEV011
        targets = torch.cat(self.targets).cpu().numpy()
        cm = np.zeros((self.n_classes, self.n_classes), dtype=np.int64)
        np.add.at(cm, (targets, preds), 1)
        recall = cm.diagonal() / np.maximum(cm.sum(1), 1)
        pl_module.log("val_min_recall", float(recall.min()))
        if trainer.is_global_zero:
            print(f"\nepoch {trainer.current_epoch} confusion matrix:\n{cm}")


if __name__ == "__main__":
    dm = TailDataModule()
    model = LitTail()
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[ConfusionMatrixCallback(4)])
    trainer.fit(model, datamodule=dm)
