"""A trainer class done right: fit and evaluate both move what the loader yields; the model is
placed once in the constructor."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Fitter:
    def __init__(self, model):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def _move(self, batch):
        return [t.to(self.device) for t in batch]

    def fit(self, loader):
        for batch in loader:
            x, y = self._move(batch)
            loss = F.cross_entropy(self.model(x), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()

    @torch.no_grad()
    def evaluate(self, loader):
        hits = 0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            hits += (self.model(x).argmax(1) == y).sum().item()
        return hits / len(loader.dataset)


if __name__ == "__main__":
    x, y = torch.randn(200, 6), torch.randint(0, 2, (200,))
    f = Fitter(nn.Linear(6, 2))
    f.fit(DataLoader(TensorDataset(x, y), batch_size=20))
    print(f.evaluate(DataLoader(TensorDataset(x, y), batch_size=50)))
