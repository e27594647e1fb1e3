"""Lightning module with class-frequency reweighting computed once the model is on its device."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchmetrics
from torch.utils.data import DataLoader, TensorDataset


class LitTagger(L.LightningModule):
    def __init__(self, in_dim=12, n_classes=4, label_counts=(50, 40, 40, 30)):
        super().__init__()
        self.save_hyperparameters()
        self.net = None
        self.metrics = nn.ModuleDict({
            "acc": torchmetrics.Accuracy(task="multiclass", num_classes=n_classes),
            "f1": torchmetrics.F1Score(task="multiclass", num_classes=n_classes, average="macro"),
        })
        self.register_buffer("class_weight", torch.ones(n_classes))

    def configure_model(self):
        if self.net is not None:
            return
        self.net = nn.Sequential(nn.Linear(self.hparams.in_dim, 64), nn.GELU(), nn.Linear(64, self.hparams.n_classes))

    def on_fit_start(self):
        counts = torch.tensor(self.hparams.label_counts, dtype=torch.float, device=self.device)
        self.class_weight.copy_(counts.sum() / (counts.clamp(min=1) * len(counts)))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y, weight=self.class_weight)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        preds = self.net(x).argmax(dim=-1)
        for m in self.metrics.values():
            m.update(preds, y)

    def on_validation_epoch_end(self):
        for name, m in self.metrics.items():
            self.log(f"val_{name}", m.compute())
            m.reset()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-3)


if __name__ == "__main__":
    x = torch.randn(160, 12)
    y = torch.randint(0, 4, (160,))
    ds = TensorDataset(x, y)
    trainer = L.Trainer(max_epochs=1, accelerator="auto", devices=1, logger=False, enable_checkpointing=False)
    trainer.fit(LitTagger(), DataLoader(ds, batch_size=32, shuffle=True), DataLoader(ds, batch_size=64))
