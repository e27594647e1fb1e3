"""A small trainer class: the constructor places the model, fit() moves each batch, evaluate()
was added later for the held-out split."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Fitter:
    def __init__(self, model, lr=1e-3):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)

    def fit(self, loader, epochs=2):
        self.model.train()
        for _ in range(epochs):
            for x, y in loader:
                x, y = x.to(self.device), y.to(self.device)
                loss = F.cross_entropy(self.model(x), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        correct = total = 0
        for x, y in loader:
            pred = self.model(x).argmax(1)  # expect: DEV002
            correct += (pred.cpu() == y).sum().item()
            total += y.numel()
        return correct / total


if __name__ == "__main__":
    x, y = torch.randn(400, 6), torch.randint(0, 2, (400,))
    fitter = Fitter(nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2)))
    fitter.fit(DataLoader(TensorDataset(x[:300], y[:300]), batch_size=32, shuffle=True))
    print(fitter.evaluate(DataLoader(TensorDataset(x[300:], y[300:]), batch_size=50)))
