"""Correct look-alike: a trainer that takes its EMA copy after the model is on the device, restores
the optimizer only once the model has moved (so Optimizer.load_state_dict casts the momentum to
the parameters' device), loads with map_location, and keeps its torchmetrics metrics on the same
device as the predictions.

Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/19225 (load the optimizer
checkpoint after the model is set up on the device, and the state is cast to the parameters'
device).
"""
import copy
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy


class Trainer:
    def __init__(self, model, device, ckpt="ema_last.pt", decay=0.995):
        self.device, self.decay, self.ckpt = device, decay, ckpt
        self.model = model.to(device)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05, momentum=0.9)
        if os.path.exists(ckpt):
            state = torch.load(ckpt, map_location=device)
            self.model.load_state_dict(state["model"])
            self.opt.load_state_dict(state["opt"])
        self.ema = copy.deepcopy(self.model).eval()
        self.acc = MulticlassAccuracy(num_classes=3).to(device)

    @torch.no_grad()
    def update_ema(self):
        for e, p in zip(self.ema.parameters(), self.model.parameters()):
            e.lerp_(p, 1.0 - self.decay)

    def fit(self, loader, epochs):
        for _ in range(epochs):
            for x, y in loader:
                x, y = x.to(self.device), y.to(self.device)
                loss = F.cross_entropy(self.model(x), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.update_ema()
        torch.save({"model": self.model.state_dict(), "opt": self.opt.state_dict()}, self.ckpt)

    @torch.no_grad()
    def evaluate(self, loader):
        self.acc.reset()
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            self.acc.update(self.ema(x), y)
        return self.acc.compute().item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, y = torch.randn(1024, 16), torch.randint(0, 3, (1024,))
    trainer = Trainer(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 3)), device)
    trainer.fit(DataLoader(TensorDataset(x[:896], y[:896]), batch_size=64, shuffle=True), epochs=3)
    print("ema accuracy", trainer.evaluate(DataLoader(TensorDataset(x[896:], y[896:]), batch_size=128)))
