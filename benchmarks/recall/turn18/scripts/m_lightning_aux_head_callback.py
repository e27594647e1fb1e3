# Curriculum: after a warm-up the model also learns to predict the coarse
# super-class. The auxiliary head is attached by a callback at that epoch so the
# warm-up runs exactly like the baseline.
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

FINE, COARSE, HIDDEN = 20, 4, 128


def fake_cifar_features(n=640, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3 * 8 * 8, generator=g)
    fine = torch.randint(0, FINE, (n,), generator=g)
    coarse = fine // (FINE // COARSE)
    return TensorDataset(x, fine, coarse)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(192, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU())

    def forward(self, x):
        return self.body(x)


class CurriculumModel(L.LightningModule):
    def __init__(self, lr=1e-3, aux_weight=0.3):
        super().__init__()
        self.save_hyperparameters()
        self.backbone = Backbone()
        self.fine_head = nn.Linear(HIDDEN, FINE)

    def training_step(self, batch, batch_idx):
        x, fine, coarse = batch
        h = self.backbone(x)
        loss = F.cross_entropy(self.fine_head(h), fine)
        if hasattr(self, "aux_head"):
            aux_loss = F.cross_entropy(self.aux_head(h), coarse)
            loss = loss + self.hparams.aux_weight * aux_loss
            self.log("aux_loss", aux_loss)
        self.log("loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class AttachAuxHead(L.Callback):
    def __init__(self, start_epoch=2):
        self.start_epoch = start_epoch

    def on_train_epoch_start(self, trainer, pl_module):
        if trainer.current_epoch == self.start_epoch and not hasattr(pl_module, "aux_head"):
            pl_module.aux_head = nn.Linear(HIDDEN, COARSE)  # expect: DEV015
            trainer.optimizers[0].add_param_group({"params": list(pl_module.aux_head.parameters())})
            print(f"attached auxiliary head at epoch {trainer.current_epoch}")


if __name__ == "__main__":
    loader = DataLoader(fake_cifar_features(), batch_size=64, shuffle=True)
    trainer = L.Trainer(max_epochs=4, callbacks=[AttachAuxHead(start_epoch=2)], logger=False,
                        enable_checkpointing=False)
    trainer.fit(CurriculumModel(), train_dataloaders=loader)
