"""Lightning classifier with a validation-report Callback (macro accuracy + class histogram).

Written from torchmetrics "Accuracy, Precision, Recall raises RuntimeError when
device='cuda'", "Both tensors are on same device but raises an error both aren't" and the
Lightning metrics docs PR "Add section about device placement" (metrics are only moved when
they are children of the LightningModule): the metric lives on a Callback, which Lightning
never moves, and the callback's histogram calls .numpy() on the gathered GPU predictions.
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy

NUM_CLASSES = 4


class Classifier(L.LightningModule):
    def __init__(self, in_dim=16, lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, NUM_CLASSES))

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
        self.log("val_loss", F.cross_entropy(logits, y))
        return {"preds": logits.argmax(-1), "target": y}

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9)


class ValReport(L.Callback):
    def __init__(self, num_classes):
        super().__init__()
        self.acc = MulticlassAccuracy(num_classes=num_classes, average="macro")  # expect: DEV019
        self.preds = []

    def on_validation_epoch_start(self, trainer, pl_module):
        self.acc.reset()
        self.preds.clear()

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        self.acc.update(outputs["preds"], outputs["target"])
        self.preds.append(outputs["preds"])

    def on_validation_epoch_end(self, trainer, pl_module):
        pl_module.log("val_macro_acc", self.acc.compute())
        hist = np.bincount(torch.cat(self.preds).numpy(), minlength=NUM_CLASSES)  # expect: DEV011
        print(f"epoch {trainer.current_epoch}: predicted class histogram {hist.tolist()}")


def make_loaders():
    g = torch.Generator().manual_seed(0)
    w = torch.randn(16, NUM_CLASSES, generator=g)
    x = torch.randn(1200, 16, generator=g)
    y = (x @ w).argmax(-1)
    train = TensorDataset(x[:1000], y[:1000])
    val = TensorDataset(x[1000:], y[1000:])
    return DataLoader(train, batch_size=50, shuffle=True), DataLoader(val, batch_size=50)


if __name__ == "__main__":
    L.seed_everything(0)
    train_dl, val_dl = make_loaders()
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[ValReport(NUM_CLASSES)])
    trainer.fit(Classifier(), train_dl, val_dl)
