"""Denoising autoencoder trained with accelerate: the corruption noise is drawn on the CPU."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class DAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 32))
        self.dec = nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 784), nn.Sigmoid())

    def forward(self, x):
        return self.dec(self.enc(x)).view(-1, 1, 28, 28)


def main():
    accelerator = Accelerator()
    ds = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
    loader = DataLoader(ds, batch_size=128, shuffle=True)
    model = DAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for epoch in range(5):
        for step, (images, _) in enumerate(loader):
            noise = torch.randn(images.shape) * 0.3  # expect: DEV006
            noisy = (images + noise).clamp(0, 1)
            loss = F.binary_cross_entropy(model(noisy), images)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
            if step % 100 == 0:
                accelerator.print(epoch, step, loss.item())


if __name__ == "__main__":
    main()
