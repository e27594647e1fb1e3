"""A small trainer class that keeps an exponential moving average of the weights for evaluation:
the EMA copy is taken in __init__, where the trainer also puts the model on its device.

Thread: https://github.com/lucidrains/DALLE2-pytorch/issues/87 (EMA update: Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and CPU!).
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, model, device, decay=0.995, lr=1e-3):
        self.device, self.decay = device, decay
        self.ema = copy.deepcopy(model).eval()  # expect: DEV016
        for p in self.ema.parameters():
            p.requires_grad_(False)
        self.model = model.to(device)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=lr)

    @torch.no_grad()
    def update_ema(self):
        for e, p in zip(self.ema.parameters(), self.model.parameters()):
            e.lerp_(p, 1.0 - self.decay)

    def fit(self, loader, epochs):
        for epoch in range(epochs):
            for x, y in loader:
                x, y = x.to(self.device), y.to(self.device)
                loss = F.cross_entropy(self.model(x), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.update_ema()

    @torch.no_grad()
    def evaluate(self, loader):
        hits = 0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            hits += (self.ema(x).argmax(-1) == y).sum().item()
        return hits / len(loader.dataset)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, y = torch.randn(1024, 16), torch.randint(0, 3, (1024,))
    train = DataLoader(TensorDataset(x[:896], y[:896]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[896:], y[896:]), batch_size=128)
    net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 3))
    trainer = Trainer(net, device)
    trainer.fit(train, epochs=3)
    print("ema accuracy", trainer.evaluate(val))
