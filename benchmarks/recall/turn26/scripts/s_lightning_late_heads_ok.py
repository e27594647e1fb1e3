"""Multi-exit classifier in Lightning: early-exit heads built in configure_model,
the final head sized from the datamodule in setup (before the strategy moves the model)."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ToyData(L.LightningDataModule):
    def __init__(self, num_classes=4, batch_size=32):
        super().__init__()
        self.num_classes = num_classes
        self.batch_size = batch_size

    def setup(self, stage=None):
        x = torch.randn(512, 3, 16, 16)
        y = torch.randint(0, self.num_classes, (512,))
        self.ds = TensorDataset(x, y)

    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=self.batch_size, shuffle=True)

    def predict_dataloader(self):
        return DataLoader(TensorDataset(self.ds.tensors[0][:64]), batch_size=self.batch_size)


class MultiExitNet(L.LightningModule):
    def __init__(self, width=32, exit_weight=0.3, class_temperatures=(1.0, 1.2, 0.8, 1.0)):
        super().__init__()
        self.save_hyperparameters()
        self.stages = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(width, width, 3, padding=1, stride=2), nn.ReLU()),
            nn.Sequential(nn.Conv2d(width, width, 3, padding=1, stride=2), nn.ReLU()),
        ])
        self.register_buffer("temps", torch.tensor(class_temperatures))
        self.head = None
        self.exits = None

    def setup(self, stage):
        if self.head is None:
            n = self.trainer.datamodule.num_classes
            self.head = nn.Linear(self.hparams.width, n)

    def configure_model(self):
        if self.exits is not None:
            return
        w = self.hparams.width
        self.exits = nn.ModuleList(nn.Linear(w, 4) for _ in range(len(self.stages) - 1))

    def forward(self, x):
        exit_logits = []
        for i, stage in enumerate(self.stages):
            x = stage(x)
            if i < len(self.exits):
                exit_logits.append(self.exits[i](x.mean(dim=(2, 3))))
        return self.head(x.mean(dim=(2, 3))), exit_logits

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits, exits = self(x)
        loss = F.cross_entropy(logits, y)
        for e in exits:
            loss = loss + self.hparams.exit_weight * F.cross_entropy(e, y)
        self.log("train_loss", loss)
        return loss

    def predict_step(self, batch, batch_idx):
        (x,) = batch
        logits, _ = self(x)
        return (logits / self.temps).softmax(dim=-1)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    dm = ToyData()
    model = MultiExitNet()
    trainer = L.Trainer(max_epochs=1, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(model, datamodule=dm)
    probs = trainer.predict(model, datamodule=dm)
    print(torch.cat(probs).cpu().shape)
