"""beta-VAE on 14x14 synthetic sprites; after training, each latent dimension is swept from -3 to
3 with the others at zero, and the decoded images are tiled into one matplotlib figure.

Thread: https://github.com/WenjieDu/PyPOTS/issues/21 ("can't convert cuda:0 device type tensor
to numpy. Use Tensor.cpu() to copy the tensor to host memory first" when plotting results).
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

LATENT = 4


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(196, 128), nn.ReLU(), nn.Linear(128, 2 * LATENT))
        self.dec = nn.Sequential(nn.Linear(LATENT, 128), nn.ReLU(), nn.Linear(128, 196),
                                 nn.Sigmoid())

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


@torch.no_grad()
def traverse(decoder, steps=7):
    rows = []
    for d in range(LATENT):
        z = torch.zeros(steps, LATENT)  # expect: DEV006
        z[:, d] = torch.linspace(-3, 3, steps)
        imgs = decoder(z).view(steps, 14, 14)
        rows.append(torch.cat(list(imgs), dim=1))
    return torch.cat(rows, dim=0)


def main(beta=4.0):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    sprites = (torch.rand(512, 196) > 0.7).float()
    model = VAE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        for (x,) in DataLoader(TensorDataset(sprites), batch_size=64, shuffle=True):
            x = x.to(device)
            recon, mu, logvar = model(x)
            kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
            loss = F.binary_cross_entropy(recon, x, reduction="sum") / x.size(0) + beta * kl
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.2f}")
    model.eval()
    grid = traverse(model.dec)
    plt.imshow(grid, cmap="gray")  # expect: DEV011
    plt.axis("off")
    plt.savefig("latent_traversal.png", bbox_inches="tight")


if __name__ == "__main__":
    main()
