"""Lightning module whose loss (with a pos_weight) is built in setup(), once the class
balance of the training split is known. setup() runs before the trainer moves the
module, and the loss is a submodule, so its pos_weight buffer moves with it."""
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 10, generator=g)
    y = (torch.rand(n, 3, generator=g) < torch.tensor([0.1, 0.3, 0.6])).float()
    return TensorDataset(x, y)


class MultiLabelModule(L.LightningModule):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
        self.register_buffer("thresholds", torch.full((3,), 0.5))
        self.train_ds = make_split(96, 0)
        self.val_ds = make_split(32, 1)
        self.criterion = None
        self._val_hits = []

    def setup(self, stage):
        if stage == "fit":
            labels = self.train_ds.tensors[1]
            pos = labels.sum(0).clamp(min=1)
            self.criterion = nn.BCEWithLogitsLoss(pos_weight=(len(labels) - pos) / pos)

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.criterion(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        preds = (torch.sigmoid(self(x)) > self.thresholds).float()
        self._val_hits.append((preds == y).float().mean(0))

    def on_validation_epoch_end(self):
        acc = torch.stack(self._val_hits).mean(0)
        per_label = acc.cpu().numpy()
        self.log("val_acc", float(per_label.mean()))
        self._val_hits.clear()

    def train_dataloader(self):
        return DataLoader(self.train_ds, batch_size=16, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_ds, batch_size=16)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    trainer = L.Trainer(max_epochs=2, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(MultiLabelModule())
