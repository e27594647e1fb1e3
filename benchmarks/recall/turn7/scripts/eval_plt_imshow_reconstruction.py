"""Convolutional autoencoder on synthetic blobs; after training, a few reconstructions are shown
next to their inputs."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn


def blobs(n, size=16):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    c = torch.randint(3, size - 3, (n, 2))
    d = (yy[None] - c[:, 0, None, None]) ** 2 + (xx[None] - c[:, 1, None, None]) ** 2
    return torch.exp(-d.float() / 8.0).unsqueeze(1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ae = nn.Sequential(
        nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
        nn.ConvTranspose2d(8, 1, 4, stride=2, padding=1), nn.Sigmoid(),
    ).to(device)
    opt = torch.optim.Adam(ae.parameters(), lr=1e-2)
    for _ in range(30):
        x = blobs(32).to(device)
        loss = nn.functional.mse_loss(ae(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
    x = blobs(4).to(device)
    with torch.no_grad():
        recon = ae(x)
    fig, axes = plt.subplots(2, 4)
    for i in range(4):
        axes[0, i].imshow(x[i, 0].cpu(), cmap="gray")
        axes[1, i].imshow(recon[i, 0], cmap="gray")  # expect: DEV011
    fig.savefig("recon.png")


if __name__ == "__main__":
    main()
