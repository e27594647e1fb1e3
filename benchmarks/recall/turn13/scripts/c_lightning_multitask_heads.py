"""Multi-task LightningModule (shared backbone, one head per task) with a DataModule.

Written from Lightning "Data is on GPU, some of the nn.Module still on CPU" (conv layers kept
in a Python list), "CrossEntropyLoss with weights" (criterions in a list, weights never
moved) and pytorch "Throwing more specific errors for CrossEntropyLoss weights being on a
different device": the task heads live in a plain list, so Lightning never moves (or
optimizes) them, and the class-balanced loss is built with a CPU weight tensor in
training_step.
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split


class TwoTaskData(L.LightningDataModule):
    def __init__(self, n=2000, in_dim=32, batch_size=64):
        super().__init__()
        self.n, self.in_dim, self.batch_size = n, in_dim, batch_size

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(0)
        x = torch.randn(self.n, self.in_dim, generator=g)
        y_sentiment = (x[:, 0] > 0.8).long() + (x[:, 0] > -0.8).long()  # 3 classes, skewed
        y_topic = x[:, 1:6].argmax(dim=1)                                  # 5 classes
        full = TensorDataset(x, y_sentiment, y_topic)
        self.train_set, self.val_set = random_split(full, [1600, 400], generator=g)

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size)


class MultiTaskModel(L.LightningModule):
    def __init__(self, in_dim=32, hidden=64, task_classes=(3, 5), lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.backbone = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(0.1),
                                      nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = [nn.Linear(hidden, c) for c in task_classes]  # expect: DEV009

    def forward(self, x):
        h = self.backbone(x)
        return [head(h) for head in self.heads]

    def training_step(self, batch, batch_idx):
        x, y_sent, y_topic = batch
        out_sent, out_topic = self(x)
        loss_sent = F.cross_entropy(out_sent, y_sent, weight=torch.tensor([2.0, 0.5, 2.0]))  # expect: DEV012
        loss_topic = F.cross_entropy(out_topic, y_topic)
        loss = loss_sent + loss_topic
        self.log_dict({"train/sent": loss_sent, "train/topic": loss_topic}, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y_sent, y_topic = batch
        out_sent, out_topic = self(x)
        acc_sent = (out_sent.argmax(-1) == y_sent).float().mean()
        acc_topic = (out_topic.argmax(-1) == y_topic).float().mean()
        self.log_dict({"val/acc_sent": acc_sent, "val/acc_topic": acc_topic})

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    L.seed_everything(0)
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(MultiTaskModel(), datamodule=TwoTaskData())
