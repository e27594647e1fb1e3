"""LightningModule with one torchmetrics object per split, kept in a plain dict."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score


class LitResNet(L.LightningModule):
    def __init__(self, num_classes=100, lr=0.1):
        super().__init__()
        self.save_hyperparameters()
        self.model = torchvision.models.resnet18(num_classes=num_classes)
        self.metrics = {  # expect: DEV009
            "val_acc": MulticlassAccuracy(num_classes=num_classes),
            "val_f1": MulticlassF1Score(num_classes=num_classes, average="macro"),
        }

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.model(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        preds = self.model(x).argmax(dim=1)
        for metric in self.metrics.values():
            metric.update(preds, y)

    def on_validation_epoch_end(self):
        for name, metric in self.metrics.items():
            self.log(name, metric.compute())
            metric.reset()

    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9, weight_decay=5e-4)
        return [opt], [torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=50)]


if __name__ == "__main__":
    import torchvision.transforms as T
    from torch.utils.data import DataLoader
    tf = T.Compose([T.ToTensor(), T.Normalize((0.507, 0.487, 0.441), (0.267, 0.256, 0.276))])
    train = DataLoader(torchvision.datasets.CIFAR100("data", train=True, download=True, transform=tf), batch_size=128, shuffle=True)
    val = DataLoader(torchvision.datasets.CIFAR100("data", train=False, download=True, transform=tf), batch_size=256)
    L.Trainer(max_epochs=50, accelerator="auto", devices=1, precision="16-mixed").fit(LitResNet(), train, val)
