"""Conditional VAE: the digit label is turned into a one-hot vector by a module-level helper before
it is concatenated to the image.

Thread: https://github.com/timbmg/VAE-CVAE-MNIST/pull/4 (Fix crashes when using GPU: define a few
tensors outside the model, move tensors to 'device').
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def idx2onehot(idx, n=10):
    onehot = torch.zeros(idx.size(0), n)  # expect: DEV006
    onehot.scatter_(1, idx.unsqueeze(1), 1)
    return onehot


class CVAE(nn.Module):
    def __init__(self, d_in=784, d_lat=4, n_cls=10):
        super().__init__()
        self.enc = nn.Linear(d_in + n_cls, 2 * d_lat)
        self.dec = nn.Sequential(nn.Linear(d_lat + n_cls, d_in), nn.Sigmoid())

    def forward(self, x, c):
        mu, logvar = self.enc(torch.cat([x, c], 1)).chunk(2, 1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(torch.cat([z, c], 1)), mu, logvar


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CVAE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ds = TensorDataset(torch.rand(96, 784), torch.randint(0, 10, (96,)))
    for x, y in DataLoader(ds, batch_size=32):
        x, y = x.to(device), y.to(device)
        c = idx2onehot(y)
        recon, mu, logvar = model(x, c)
        loss = F.binary_cross_entropy(recon, x, reduction="sum") - 0.5 * torch.sum(1 + logvar - mu ** 2 - logvar.exp())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
