"""Imbalanced multi-class classification with a class-balanced focal loss."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler


class FocalLoss(nn.Module):
    def __init__(self, alpha=None, gamma=2.0, reduction="mean"):
        super().__init__()
        self.gamma = gamma
        self.reduction = reduction
        if alpha is not None:
            self.alpha = torch.tensor(alpha, dtype=torch.float32)  # expect: DEV010
        else:
            self.alpha = None

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        logp_t = logp.gather(1, target.unsqueeze(1)).squeeze(1)
        p_t = logp_t.exp()
        loss = -((1 - p_t) ** self.gamma) * logp_t
        if self.alpha is not None:
            loss = loss * self.alpha.gather(0, target)
        if self.reduction == "mean":
            return loss.mean()
        return loss.sum() if self.reduction == "sum" else loss


def class_balanced_alpha(counts, beta=0.999):
    eff = 1.0 - np.power(beta, counts)
    w = (1.0 - beta) / eff
    return (w / w.sum() * len(counts)).tolist()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    y = rng.choice(4, size=800, p=[0.7, 0.2, 0.07, 0.03])
    x = (rng.normal(size=(800, 10)) + y[:, None] * 0.5).astype(np.float32)
    counts = np.bincount(y, minlength=4)

    ds = TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
    sample_w = torch.as_tensor(1.0 / counts[y], dtype=torch.double)
    loader = DataLoader(ds, batch_size=64,
                        sampler=WeightedRandomSampler(sample_w, num_samples=len(ds)))

    model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    criterion = FocalLoss(alpha=class_balanced_alpha(counts), gamma=2.0).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(4):
        running = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} focal {running / len(loader):.4f}")


if __name__ == "__main__":
    main()
