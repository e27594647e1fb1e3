"""Lightning audio-event tagger: class weights from the DataModule, heads in a ModuleList.

Correct look-alike, written from Lightning "CrossEntropyLoss with weights" (fix: hold the
criterions in an nn.ModuleList), "Where to use `to(self.device)`?", "RuntimeError: All input
tensors must be on the same device. Received cpu and cuda:0" (a torch.tensor(0) made in a
LightningModule method) and torchmetrics' device-placement docs: the weighted loss is an
nn.CrossEntropyLoss child created in setup() (which Lightning runs before moving the model),
the per-task heads and the metric are registered children, new tensors take
device=self.device, and the callback copies to the CPU before NumPy.
"""
import lightning as L
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassF1Score


class EventData(L.LightningDataModule):
    def __init__(self, batch_size=64):
        super().__init__()
        self.batch_size = batch_size

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(0)
        feats = torch.randn(1500, 40, generator=g)
        event = torch.bucketize(feats[:, 0], torch.tensor([-1.0, 1.2]))    # 3 events, imbalanced
        scene = feats[:, 1:5].argmax(1)
        counts = torch.bincount(event[:1200], minlength=3).float()
        self.class_weights = counts.sum() / (3 * counts)
        self.train_set = TensorDataset(feats[:1200], event[:1200], scene[:1200])
        self.val_set = TensorDataset(feats[1200:], event[1200:], scene[1200:])

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size)


class Tagger(L.LightningModule):
    def __init__(self, classes=(3, 4), lr=2e-3):
        super().__init__()
        self.save_hyperparameters()
        self.body = nn.Sequential(nn.Linear(40, 128), nn.GELU(), nn.Linear(128, 128), nn.GELU())
        self.heads = nn.ModuleList([nn.Linear(128, c) for c in classes])
        self.val_f1 = MulticlassF1Score(num_classes=classes[0], average="macro")

    def setup(self, stage):
        weights = self.trainer.datamodule.class_weights
        self.event_loss = nn.CrossEntropyLoss(weight=weights)
        self.scene_loss = nn.CrossEntropyLoss(label_smoothing=0.05)

    def forward(self, x):
        h = self.body(x)
        return [head(h) for head in self.heads]

    def training_step(self, batch, batch_idx):
        x, event, scene = batch
        x = x + 0.05 * torch.randn_like(x)
        ev, sc = self(x)
        aux_scale = torch.tensor(0.5, device=self.device)
        loss = self.event_loss(ev, event) + aux_scale * self.scene_loss(sc, scene)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, event, _ = batch
        ev, _ = self(x)
        self.val_f1.update(ev, event)
        self.log("val_f1", self.val_f1, on_epoch=True)
        return ev.argmax(-1)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


class PredictionHistogram(L.Callback):
    def on_validation_epoch_start(self, trainer, pl_module):
        self.preds = []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        self.preds.append(outputs.detach().cpu())

    def on_validation_epoch_end(self, trainer, pl_module):
        hist = np.bincount(torch.cat(self.preds).numpy(), minlength=3)
        print(f"epoch {trainer.current_epoch}: event histogram {hist.tolist()}")


if __name__ == "__main__":
    L.seed_everything(0)
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False, callbacks=[PredictionHistogram()])
    trainer.fit(Tagger(), datamodule=EventData())
