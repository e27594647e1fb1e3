from __future__ import print_function

import argparse

import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F

parser = argparse.ArgumentParser(description="VAE on synthetic digits")
parser.add_argument("--batch-size", type=int, default=64, metavar="N")
parser.add_argument("--epochs", type=int, default=2, metavar="N")
parser.add_argument("--no-cuda", action="store_true", default=False)
parser.add_argument("--seed", type=int, default=1, metavar="S")
parser.add_argument("--latent", type=int, default=8)
parser.add_argument("--log-interval", type=int, default=5, metavar="N")
args = parser.parse_args()
args.cuda = not args.no_cuda and torch.cuda.is_available()

torch.manual_seed(args.seed)
device = torch.device("cuda" if args.cuda else "cpu")
kwargs = {"num_workers": 0, "pin_memory": True} if args.cuda else {}


def fake_digits(n):
    # 28x28 "strokes": a few random bright rows/cols, values in [0, 1]
    x = torch.zeros(n, 1, 28, 28)
    rows = torch.randint(4, 24, (n, 2))
    cols = torch.randint(4, 24, (n, 2))
    for i in range(n):
        x[i, 0, rows[i, 0]:rows[i, 0] + 2, cols[i, 0]:cols[i, 1] + 3] = 1.0
        x[i, 0, rows[i, 0]:rows[i, 1] + 3, cols[i, 1]:cols[i, 1] + 2] = 1.0
    return x, torch.zeros(n, dtype=torch.long)


train_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(*fake_digits(512)), batch_size=args.batch_size, shuffle=True, **kwargs)
test_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(*fake_digits(128)), batch_size=args.batch_size, shuffle=False, **kwargs)


class VAE(nn.Module):
    def __init__(self, latent):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(784, 256)
        self.fc21 = nn.Linear(256, latent)
        self.fc22 = nn.Linear(256, latent)
        self.fc3 = nn.Linear(latent, 256)
        self.fc4 = nn.Linear(256, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


model = VAE(args.latent).to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)


# Reconstruction + KL divergence losses summed over all elements and batch
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(train_loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print("Train Epoch: {} [{}/{}]\tLoss: {:.6f}".format(
                epoch, batch_idx * len(data), len(train_loader.dataset), loss.item() / len(data)))
    print("====> Epoch: {} Average loss: {:.4f}".format(epoch, train_loss / len(train_loader.dataset)))


def evaluate(vae, loader):
    vae.eval()
    total = 0.0
    with torch.no_grad():
        for data, _ in loader:
            recon, mu, logvar = vae(data)  # expect: DEV002
            total += loss_function(recon, data, mu, logvar).item()
    return total / len(loader.dataset)


if __name__ == "__main__":
    for epoch in range(1, args.epochs + 1):
        train(epoch)
        print("====> Test set loss: {:.4f}".format(evaluate(model, test_loader)))
        with torch.no_grad():
            z = torch.randn(64, args.latent)  # expect: DEV006
            sample = model.decode(z).cpu()
            torch.save(sample.view(64, 1, 28, 28), "sample_" + str(epoch) + ".pt")
