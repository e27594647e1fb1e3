"""Correct look-alike: two loaders zipped for a consistency loss, every tensor of both batches
moved in the step, the second loader's lengths kept on the CPU where they are only counted."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    a = TensorDataset(torch.randn(256, 10), torch.randint(0, 3, (256,)))
    b = TensorDataset(torch.randn(256, 10), torch.randint(1, 10, (256,)))
    loader_a = DataLoader(a, batch_size=32, shuffle=True)
    loader_b = DataLoader(b, batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    seen = 0
    for (xa, ya), (xb, nb) in zip(loader_a, loader_b):
        xa, ya = xa.to(device), ya.to(device)
        xb = xb.to(device)
        seen += int(nb.sum())
        loss = F.cross_entropy(model(xa), ya) + F.mse_loss(model(xb), model(xb + 0.01).detach())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(seen, loss.item())


if __name__ == "__main__":
    main()
