"""A reusable Trainer: one helper moves every batch, metrics come back to the host explicitly."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self, d_in=20, d_hidden=64, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(d_hidden, n_classes))

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, model, optimizer, device=None):
        self.device = device or torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.optimizer = optimizer
        self.loss_fn = nn.CrossEntropyLoss()
        self.history = []

    def _to_device(self, batch):
        return tuple(t.to(self.device, non_blocking=True) for t in batch)

    def train_epoch(self, loader):
        self.model.train()
        running = 0.0
        for batch in loader:
            inputs, targets = self._to_device(batch)
            self.optimizer.zero_grad(set_to_none=True)
            loss = self.loss_fn(self.model(inputs), targets)
            loss.backward()
            self.optimizer.step()
            running += loss.item() * inputs.size(0)
        return running / len(loader.dataset)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        preds, gold = [], []
        for inputs, targets in loader:
            logits = self.model(inputs.to(self.device))
            preds.append(logits.argmax(1).cpu().numpy())
            gold.append(targets.numpy())
        return float((np.concatenate(preds) == np.concatenate(gold)).mean())

    def fit(self, train_loader, val_loader, epochs=2):
        for epoch in range(epochs):
            loss = self.train_epoch(train_loader)
            acc = self.evaluate(val_loader)
            self.history.append((loss, acc))
            print(f"[{epoch}] loss {loss:.4f} acc {acc:.3f}")
        return self.history


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    X, y = torch.randn(40, 20, generator=g), torch.randint(0, 3, (40,), generator=g)
    train_loader = DataLoader(TensorDataset(X, y), batch_size=8, shuffle=True)
    val_loader = DataLoader(TensorDataset(X[:16], y[:16]), batch_size=8)
    model = MLP()
    trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-3))
    trainer.fit(train_loader, val_loader, epochs=1)
