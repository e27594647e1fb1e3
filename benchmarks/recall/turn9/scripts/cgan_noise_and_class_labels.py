"""Conditional GAN: the generator step samples noise and class labels for the fake batch.

Thread: https://github.com/diegoalejogm/gans/issues/12 (Expected object of device type cuda but got
device type cpu for argument #2 'mat1': noise made on the CPU for a generator on the GPU).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

NZ, NC = 16, 10


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_emb = nn.Embedding(NC, NC)
        self.net = nn.Sequential(nn.Linear(NZ + NC, 128), nn.ReLU(), nn.Linear(128, 784), nn.Tanh())

    def forward(self, z, labels):
        return self.net(torch.cat([z, self.label_emb(labels)], 1))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_emb = nn.Embedding(NC, NC)
        self.net = nn.Sequential(nn.Linear(784 + NC, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1))

    def forward(self, x, labels):
        return self.net(torch.cat([x, self.label_emb(labels)], 1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    G, D = Generator().to(device), Discriminator().to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
    loss_fn = nn.BCEWithLogitsLoss()
    ds = TensorDataset(torch.rand(128, 784), torch.randint(0, NC, (128,)))
    for imgs, labels in DataLoader(ds, batch_size=32):
        imgs, labels = imgs.to(device), labels.to(device)
        b = imgs.size(0)
        ones = torch.ones(b, 1, device=device)
        zeros = torch.zeros(b, 1, device=device)
        z = torch.randn(b, NZ)  # expect: DEV006
        gen_labels = torch.randint(0, NC, (b,))  # expect: DEV006
        fake_imgs = G(z, gen_labels)
        g_loss = loss_fn(D(fake_imgs, gen_labels), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        d_loss = loss_fn(D(imgs, labels), ones) + loss_fn(D(fake_imgs.detach(), gen_labels), zeros)
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
    print(g_loss.item(), d_loss.item())


if __name__ == "__main__":
    main()
