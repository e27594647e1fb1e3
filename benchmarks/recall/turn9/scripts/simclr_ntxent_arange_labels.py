"""SimCLR-style pretraining: the NT-Xent loss builds its positive-pair targets and its diagonal mask
inside the loss function.

Thread: https://github.com/hangyu94/Ada-CM/issues/10 (Expected all tensors to be on the same device,
cuda:0 and cpu, at a mask built in the similarity loss).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    n = z1.size(0)
    sim = z @ z.t() / tau
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))  # expect: DEV006
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])  # expect: DEV006
    return F.cross_entropy(sim, targets)


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)).to(device)
    opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
    for (x,) in DataLoader(TensorDataset(torch.randn(128, 32)), batch_size=32):
        x = x.to(device)
        loss = nt_xent(encoder(augment(x)), encoder(augment(x)))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
