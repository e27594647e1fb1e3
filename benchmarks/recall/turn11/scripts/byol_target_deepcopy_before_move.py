"""BYOL self-supervised pre-training of a 1-D CNN on accelerometer windows: the target network
is an exponential moving average of the online network.

Thread: https://github.com/dptech-corp/Uni-Core/issues/42 (EMA's param and new_param on different
devices: "Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!").
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def mlp(d_in, d_out, hidden=64):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                         nn.Linear(hidden, d_out))


class Encoder(nn.Module):
    def __init__(self, channels=3, d=64):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(channels, 32, 5, padding=2), nn.ReLU(),
                                 nn.Conv1d(32, d, 5, padding=2), nn.ReLU(),
                                 nn.AdaptiveAvgPool1d(1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def augment(x):
    scale = 1 + 0.1 * torch.randn(x.size(0), x.size(1), 1, device=x.device)
    return x * scale + 0.05 * torch.randn_like(x)


def byol_loss(p, z):
    return 2 - 2 * F.cosine_similarity(p, z.detach(), dim=-1).mean()


def main(tau=0.99):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    online = nn.Sequential(Encoder(), mlp(64, 32))
    predictor = mlp(32, 32)
    target = copy.deepcopy(online)  # expect: DEV016
    target.requires_grad_(False)
    online.to(device)
    predictor.to(device)
    opt = torch.optim.Adam(list(online.parameters()) + list(predictor.parameters()), lr=1e-3)
    loader = DataLoader(TensorDataset(torch.randn(512, 3, 100)), batch_size=64, shuffle=True,
                        drop_last=True)
    for epoch in range(2):
        for (x,) in loader:
            x = x.to(device)
            v1, v2 = augment(x), augment(x)
            p1, p2 = predictor(online(v1)), predictor(online(v2))
            with torch.no_grad():
                z1, z2 = target(v1), target(v2)
            loss = byol_loss(p1, z2) + byol_loss(p2, z1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                for pt, po in zip(target.parameters(), online.parameters()):
                    pt.mul_(tau).add_(po, alpha=1 - tau)
        print(f"epoch {epoch}: byol {loss.item():.4f}")


if __name__ == "__main__":
    main()
