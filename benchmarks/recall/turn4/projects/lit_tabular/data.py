import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset


class TabularData(L.LightningDataModule):
    def __init__(self, n_rows=1000, n_features=16, batch_size=64):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n_rows, n_features, generator=g)
        self.y = (self.x[:, 0] + 0.5 * torch.randn(n_rows, generator=g) > 1.2).float()
        self.batch_size = batch_size

    def positive_weight(self):
        pos = self.y.sum()
        return (len(self.y) - pos) / pos.clamp(min=1)

    def train_dataloader(self):
        return DataLoader(TensorDataset(self.x[:800], self.y[:800]), batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(TensorDataset(self.x[800:], self.y[800:]), batch_size=self.batch_size)
