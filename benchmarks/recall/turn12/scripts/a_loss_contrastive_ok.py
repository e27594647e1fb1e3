"""Correct look-alike: a supervised-contrastive + weighted cross-entropy loss
module with its own forward, trained on two augmented views per batch.

Class weights are a registered buffer and the criterion is moved with the model;
the InfoNCE targets come from torch.arange(..., device=...); the temperature is a
0-dim tensor (legal against CUDA operands); the shuffle permutation is a CPU
index tensor used on CUDA embeddings, which PyTorch allows; batches are moved
inside the loop.

Written against "Setting the weight argument in nn.Loss functions, suggestions for
a better error message", "multiclassification wants to runs on multiple devices
(gpu and cpu)" and "fix the different device" threads.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ContrastiveCE(nn.Module):
    def __init__(self, class_weights, temperature=0.1, lam=0.5):
        super().__init__()
        self.register_buffer("class_weights", torch.as_tensor(class_weights, dtype=torch.float32))
        self.temperature = torch.tensor(temperature)
        self.lam = lam

    def forward(self, z1, z2, logits, labels):
        z1, z2 = F.normalize(z1, dim=-1), F.normalize(z2, dim=-1)
        sim = z1 @ z2.t() / self.temperature
        targets = torch.arange(z1.size(0), device=z1.device)
        nce = 0.5 * (F.cross_entropy(sim, targets) + F.cross_entropy(sim.t(), targets))
        ce = F.cross_entropy(logits, labels, weight=self.class_weights)
        return self.lam * nce + (1.0 - self.lam) * ce


class Encoder(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32))
        self.cls = nn.Linear(32, n_classes)

    def forward(self, x):
        z = self.body(x)
        return z, self.cls(z)


def augment(x, g):
    return x + 0.1 * torch.randn(x.shape, generator=g)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    x = torch.randn(900, 20, generator=g)
    y = torch.bucketize(x[:, 0], torch.tensor([-0.5, 0.8]))
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
    counts = torch.bincount(y, minlength=3).float()
    model = Encoder().to(device)
    criterion = ContrastiveCE(class_weights=(counts.sum() / (3 * counts)).tolist()).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(3):
        for xb, yb in loader:
            v1, v2 = augment(xb, g).to(device), augment(xb, g).to(device)
            yb = yb.to(device)
            z1, logits = model(v1)
            z2, _ = model(v2)
            perm = torch.randperm(z2.size(0))
            hard_negatives = z2[perm]
            loss = criterion(z1, z2, logits, yb) + 0.01 * F.cosine_similarity(z1, hard_negatives).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    with torch.no_grad():
        z, logits = model(x.to(device))
    acc = (logits.argmax(1).cpu() == y).float().mean().item()
    print("train acc", round(acc, 3), "embedding norms", z.norm(dim=1).mean().item())


if __name__ == "__main__":
    main()
