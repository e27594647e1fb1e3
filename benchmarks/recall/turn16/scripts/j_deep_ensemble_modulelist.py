"""Deep ensemble of small classifiers with temperature scaling; reports accuracy, NLL,
predictive entropy and a reliability table."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def two_moons(n, noise=0.15, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    lab = rng.integers(0, 2, n)
    x = np.where(lab[:, None] == 0, np.c_[np.cos(t), np.sin(t)], np.c_[1 - np.cos(t), 0.5 - np.sin(t)])
    x += noise * rng.normal(size=x.shape)
    return torch.tensor(x, dtype=torch.float32), torch.tensor(lab)


class Member(nn.Module):
    def __init__(self, hidden=32, p=0.1):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Dropout(p), nn.Linear(hidden, 2))

    def forward(self, x):
        return self.f(x)


class Ensemble(nn.Module):
    def __init__(self, n_members=5):
        super().__init__()
        self.members = nn.ModuleList([Member() for _ in range(n_members)])

    def forward(self, x):
        return torch.stack([m(x) for m in self.members])  # (M, B, C)


def train_member(member, loader, device, epochs=20):
    opt = torch.optim.Adam(member.parameters(), lr=1e-2)
    for _ in range(epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(member(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()


@torch.no_grad()
def predictive(ensemble, x, temperature):
    ensemble.eval()
    logits = ensemble(x)
    probs = F.softmax(logits / temperature, dim=-1).mean(0)
    entropy = -(probs * probs.clamp_min(1e-12).log()).sum(-1)
    return probs, entropy


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x_tr, y_tr = two_moons(600, seed=0)
    x_te, y_te = two_moons(400, seed=1)
    loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=64, shuffle=True)

    ens = Ensemble().to(device)
    for i, m in enumerate(ens.members):
        torch.manual_seed(i)
        for layer in m.f:
            if hasattr(layer, "reset_parameters"):
                layer.reset_parameters()
        train_member(m, loader, device)

    temperature = torch.tensor(1.3)  # fitted offline on a held-out split
    probs, ent = predictive(ens, x_te.to(device), temperature)
    y_dev = y_te.to(device)
    acc = (probs.argmax(1) == y_dev).float().mean().item()
    nll = F.nll_loss(probs.clamp_min(1e-12).log(), y_dev).item()
    print(f"acc {acc:.3f}  nll {nll:.3f}  mean entropy {ent.mean().item():.3f}")

    conf = probs.max(1).values.cpu().numpy()
    correct = (probs.argmax(1) == y_dev).cpu().numpy()
    bins = np.linspace(0.5, 1.0, 6)
    which = np.digitize(conf, bins) - 1
    for b in range(len(bins) - 1):
        sel = which == b
        if sel.any():
            print(f"conf [{bins[b]:.1f},{bins[b + 1]:.1f}): n={sel.sum():3d} acc={correct[sel].mean():.2f}")

    # far-away points should get high entropy
    far = torch.tensor([[4.0, 4.0], [-3.0, -2.0]], device=device)
    _, far_ent = predictive(ens, far, temperature)
    print("entropy far from data:", far_ent.cpu().numpy().round(3))


if __name__ == "__main__":
    main()
