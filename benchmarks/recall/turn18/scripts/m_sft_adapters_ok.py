"""Per-task adapters over a shared encoder, trained by a small trainer class."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

TASKS = {"nli": 3, "sst": 2}


class Adapter(nn.Module):
    def __init__(self, d, r=16):
        super().__init__()
        self.down, self.up = nn.Linear(d, r), nn.Linear(r, d)

    def forward(self, h):
        return h + self.up(F.gelu(self.down(h)))


class Model(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(500, d)
        self.enc = nn.Sequential(nn.Linear(d, d), nn.GELU())
        self.adapters = nn.ModuleDict({t: Adapter(d) for t in TASKS})
        self.heads = nn.ModuleDict({t: nn.Linear(d, n) for t, n in TASKS.items()})

    def forward(self, ids, task):
        return self.heads[task](self.adapters[task](self.enc(self.emb(ids))))


class Trainer:
    def __init__(self, model, device, lr=1e-3):
        self.device = device
        self.model = model.to(device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)

    def step(self, batch, task):
        self.model.train()
        ids, labels = (t.to(self.device) for t in batch)
        loss = F.cross_entropy(self.model(ids, task), labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def accuracy(self, loader, task):
        self.model.eval()
        correct = total = 0
        for ids, labels in loader:
            pred = self.model(ids.to(self.device), task).argmax(-1).cpu()
            correct += (pred == labels).sum().item()
            total += len(labels)
        return correct / total


def loader(n_cls, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, 500, (128, 10), generator=g)
    return DataLoader(TensorDataset(x, x[:, 0] % n_cls), batch_size=16, shuffle=True)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    trainer = Trainer(Model(), device)
    loaders = {t: loader(n, i) for i, (t, n) in enumerate(TASKS.items())}
    for epoch in range(2):
        for task, dl in loaders.items():
            losses = [trainer.step(b, task) for b in dl]
            print(epoch, task, round(sum(losses) / len(losses), 3), round(trainer.accuracy(dl, task), 3))
