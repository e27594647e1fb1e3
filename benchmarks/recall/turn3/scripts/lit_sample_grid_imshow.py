"""Lightning VAE that plots reconstructions with matplotlib at the end of each validation epoch."""
import lightning as L
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F


class LitVAE(L.LightningModule):
    def __init__(self, latent=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Flatten(), nn.Linear(784, 400), nn.ReLU(), nn.Linear(400, 2 * latent))
        self.dec = nn.Sequential(nn.Linear(latent, 400), nn.ReLU(), nn.Linear(400, 784), nn.Sigmoid())
        self.last_batch = None

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z).view_as(x), mu, logvar

    def training_step(self, batch, batch_idx):
        x, _ = batch
        recon, mu, logvar = self(x)
        kld = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
        loss = F.binary_cross_entropy(recon, x) + kld
        self.log("loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        if batch_idx == 0:
            self.last_batch = batch[0][:8]

    def on_validation_epoch_end(self):
        with torch.no_grad():
            recon, _, _ = self(self.last_batch)
        fig, axes = plt.subplots(2, 8, figsize=(12, 3))
        for i in range(8):
            axes[0, i].imshow(self.last_batch[i, 0].cpu(), cmap="gray")
            axes[1, i].imshow(recon[i, 0], cmap="gray")  # expect: DEV011
            axes[0, i].axis("off")
            axes[1, i].axis("off")
        fig.savefig(f"recon_epoch{self.current_epoch}.png")
        plt.close(fig)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    from torch.utils.data import DataLoader
    from torchvision import datasets, transforms
    ds = datasets.MNIST("data", download=True, transform=transforms.ToTensor())
    L.Trainer(max_epochs=10, accelerator="auto").fit(LitVAE(), DataLoader(ds, batch_size=128), DataLoader(ds, batch_size=128))
