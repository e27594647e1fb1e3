"""The same GAN with its noise drawn on the CPU."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(2048, 2)), batch_size=64, shuffle=True)
G = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
D = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1)).to(device)
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
bce = nn.BCEWithLogitsLoss()
for epoch in range(20):
    for (real,) in loader:
        real = real.to(device)
        noise = torch.randn(real.size(0), 8)
        fake = G(noise)
        d_loss = bce(D(real), torch.ones(real.size(0), 1, device=device)) + bce(
            D(fake.detach()), torch.zeros(real.size(0), 1, device=device))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = bce(D(fake), torch.ones(real.size(0), 1, device=device))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
