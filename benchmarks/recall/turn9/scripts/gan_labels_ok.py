"""Look-alike of gan_bce_labels_in_loop.py and cgan_noise_and_class_labels.py: targets with
torch.full(..., device=), ones_like on the discriminator output, fixed noise made once on the device,
a label-smoothing factor kept as a 0-dim CPU tensor.

Thread: https://github.com/interTwin-eu/itwinai/pull/191 (GAN trainer: real/fake labels made with
torch.full(..., device=self.device)).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

NZ = 16


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    G = nn.Sequential(nn.Linear(NZ, 64), nn.ReLU(), nn.Linear(64, 784), nn.Tanh()).to(device)
    D = nn.Sequential(nn.Linear(784, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1)).to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
    crit = nn.BCEWithLogitsLoss()
    smooth = torch.tensor(0.9)
    fixed_noise = torch.randn(8, NZ, device=device)
    loader = DataLoader(TensorDataset(torch.rand(128, 784)), batch_size=32)
    for (real,) in loader:
        real = real.to(device)
        b = real.size(0)
        real_t = torch.full((b, 1), 1.0, device=device) * smooth
        fake = G(torch.randn(b, NZ, device=device))
        out_f = D(fake.detach())
        d_loss = crit(D(real), real_t) + crit(out_f, torch.zeros_like(out_f))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        out_g = D(fake)
        g_loss = crit(out_g, torch.ones_like(out_g))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
    with torch.no_grad():
        grid = G(fixed_noise).cpu().numpy()
    print(grid.shape)


if __name__ == "__main__":
    main()
