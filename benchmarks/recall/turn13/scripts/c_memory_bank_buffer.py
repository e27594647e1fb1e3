"""Instance discrimination with a memory bank of per-sample embeddings, plus kNN evaluation.

Correct look-alike, written from lightly "Register memory bank as a buffer", stable-pretraining
"OnlineKNN: OnlineQueue buffers live on CPU" and fast-reid "Fix Error: TypeError: can't
convert cuda:0 device type tensor to numpy": the bank is a registered buffer, the dataset
indices stay on the CPU (a CPU index tensor may index a CUDA tensor), the bank update moves
the indices explicitly for index_copy_, and kNN scores come back with .cpu() before NumPy.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class IndexedPoints(Dataset):
    def __init__(self, n=1500, k=5, dim=16, seed=0):
        g = torch.Generator().manual_seed(seed)
        centers = torch.randn(k, dim, generator=g) * 2.5
        self.y = torch.randint(0, k, (n,), generator=g)
        self.x = centers[self.y] + torch.randn(n, dim, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i], i


class BankModel(nn.Module):
    def __init__(self, n_items, in_dim=16, dim=32, momentum=0.5, temperature=0.1, negatives=256):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, dim))
        self.register_buffer("bank", F.normalize(torch.randn(n_items, dim), dim=1))
        self.m, self.t, self.k = momentum, temperature, negatives

    def forward(self, x, idx):
        z = F.normalize(self.encoder(x), dim=1)
        pos = self.bank[idx]                                   # CPU idx into the device bank
        neg_idx = torch.randint(0, self.bank.size(0), (x.size(0), self.k), device=z.device)
        neg = self.bank[neg_idx]
        logits = torch.cat([(z * pos).sum(1, keepdim=True), torch.einsum("bd,bkd->bk", z, neg)], 1)
        loss = F.cross_entropy(logits / self.t, torch.zeros(x.size(0), dtype=torch.long, device=z.device))
        with torch.no_grad():
            new = F.normalize(self.m * pos + (1 - self.m) * z.detach(), dim=1)
            self.bank.index_copy_(0, idx.to(self.bank.device), new)
        return loss


@torch.no_grad()
def knn_accuracy(model, loader, labels, device, k=10):
    hits = 0
    train_labels = labels.numpy()
    for x, y, _ in loader:
        z = F.normalize(model.encoder(x.to(device)), dim=1)
        sims = (z @ model.bank.t()).cpu().numpy()
        top = np.argsort(-sims, axis=1)[:, 1:k + 1]
        votes = np.array([np.bincount(train_labels[row], minlength=5).argmax() for row in top])
        hits += int((votes == y.numpy()).sum())
    return hits / len(labels)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    data = IndexedPoints()
    loader = DataLoader(data, batch_size=128, shuffle=True)
    model = BankModel(len(data)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(5):
        for x, _, idx in loader:
            loss = model(x.to(device), idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} nce {loss.item():.4f}")

    eval_loader = DataLoader(data, batch_size=256)
    print(f"kNN accuracy {knn_accuracy(model, eval_loader, data.y, device):.3f}")


if __name__ == "__main__":
    main()
