"""Lightning land-cover classifier over 12-band pixel spectra; validation accuracy and macro F1
come from torchmetrics objects kept by name on the module.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/7428 (Torchmetric bug? IoU on
the GPU: "Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!").
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score

N_BANDS, N_CLASSES = 12, 5


class LandCover(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_BANDS, 64), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(64, N_CLASSES))
        self.val_metrics = {"acc": MulticlassAccuracy(num_classes=N_CLASSES), "f1": MulticlassF1Score(num_classes=N_CLASSES, average="macro")}  # expect: DEV009  # also: DEV019

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        preds = self(x).argmax(dim=-1)
        for metric in self.val_metrics.values():
            metric.update(preds, y)

    def on_validation_epoch_end(self):
        self.log_dict({f"val_{k}": m.compute() for k, m in self.val_metrics.items()})
        for metric in self.val_metrics.values():
            metric.reset()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-3)


if __name__ == "__main__":
    y = torch.randint(0, N_CLASSES, (800,))
    x = torch.randn(800, N_BANDS) + y[:, None].float() * 0.5
    train = DataLoader(TensorDataset(x[:640], y[:640]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[640:], y[640:]), batch_size=64)
    trainer = L.Trainer(max_epochs=3, accelerator="auto", devices=1, logger=False,
                        enable_checkpointing=False)
    trainer.fit(LandCover(), train, val)
