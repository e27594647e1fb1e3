"""Look-alike of vae_reparameterize_randn.py and cvae_onehot_helper.py: noise with randn_like, one-hot
with F.one_hot of the moved labels, samples drawn with device=, a 0-dim KL weight on the CPU.

Thread: https://github.com/DenOfEquity/webUI_ExtraSchedulers/pull/3 (randn_like already puts eps on
the same device).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CVAE(nn.Module):
    def __init__(self, d_in=784, d_lat=4, n_cls=10):
        super().__init__()
        self.d_lat = d_lat
        self.enc = nn.Linear(d_in + n_cls, 2 * d_lat)
        self.dec = nn.Sequential(nn.Linear(d_lat + n_cls, d_in), nn.Sigmoid())

    def reparameterize(self, mu, logvar):
        return mu + torch.randn_like(mu) * (0.5 * logvar).exp()

    def forward(self, x, c):
        mu, logvar = self.enc(torch.cat([x, c], 1)).chunk(2, 1)
        return self.dec(torch.cat([self.reparameterize(mu, logvar), c], 1)), mu, logvar


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CVAE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    beta = torch.tensor(0.5)
    ds = TensorDataset(torch.rand(96, 784), torch.randint(0, 10, (96,)))
    for x, y in DataLoader(ds, batch_size=32):
        x, y = x.to(device), y.to(device)
        c = F.one_hot(y, 10).float()
        recon, mu, logvar = model(x, c)
        kld = -0.5 * torch.sum(1 + logvar - mu ** 2 - logvar.exp())
        loss = F.binary_cross_entropy(recon, x, reduction="sum") + beta * kld
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        z = torch.randn(10, model.d_lat, device=device)
        c = F.one_hot(torch.arange(10, device=device), 10).float()
        samples = model.dec(torch.cat([z, c], 1)).cpu()
    print(samples.shape)


if __name__ == "__main__":
    main()
