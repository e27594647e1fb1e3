"""Lightning classifier with logit adjustment: class frequencies are counted from the training
labels when fitting starts and subtracted from the logits in training_step."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class AdjustedClassifier(L.LightningModule):
    def __init__(self, train_labels, n_in=16, n_classes=4, tau=1.0):
        super().__init__()
        self.train_labels = train_labels
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, n_classes))
        self.n_classes = n_classes
        self.tau = tau

    def on_fit_start(self):
        freq = torch.bincount(self.train_labels, minlength=self.n_classes).float()
        self.log_freq = torch.log(freq / freq.sum())  # expect: DEV006

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x) + self.tau * self.log_freq
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    x = torch.randn(512, 16)
    y = torch.randint(0, 4, (512,))
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
    L.Trainer(max_epochs=2, accelerator="auto", logger=False).fit(AdjustedClassifier(y), loader)
