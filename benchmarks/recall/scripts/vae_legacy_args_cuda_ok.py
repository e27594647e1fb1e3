"""VAE in the old examples style: args.cuda derived from --no-cuda and torch.cuda.is_available()."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser(description="VAE example")
parser.add_argument("--batch-size", type=int, default=8)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--no-cuda", action="store_true", default=False)
args = parser.parse_args()
args.cuda = not args.no_cuda and torch.cuda.is_available()


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc21, self.fc22 = nn.Linear(64, 32), nn.Linear(32, 4), nn.Linear(32, 4)
        self.fc3, self.fc4 = nn.Linear(4, 32), nn.Linear(32, 64)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        h = F.relu(self.fc1(x.view(-1, 64)))
        mu, logvar = self.fc21(h), self.fc22(h)
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar


model = VAE()
if args.cuda:
    model.cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(torch.rand(24, 1, 8, 8)), batch_size=args.batch_size, shuffle=True)

for epoch in range(1, args.epochs + 1):
    model.train()
    for (data,) in loader:
        if args.cuda:
            data = data.cuda()
        optimizer.zero_grad()
        recon, mu, logvar = model(data)
        bce = F.binary_cross_entropy(recon, data.view(-1, 64), reduction="sum")
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        (bce + kld).backward()
        optimizer.step()
    with torch.no_grad():
        sample = torch.randn(8, 4)
        if args.cuda:
            sample = sample.cuda()
        sample = model.decode(sample).cpu().numpy()
    print(f"epoch {epoch} loss {(bce + kld).item() / len(data):.3f} sample mean {sample.mean():.3f}")
