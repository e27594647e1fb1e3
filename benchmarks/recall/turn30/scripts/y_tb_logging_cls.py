"""Small CNN on synthetic stripe images with TensorBoard logging: the model graph from one
sample batch, scalars every step, first-layer filters as images, a prediction figure."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.tensorboard import SummaryWriter


def stripes(n=512, size=20, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    grid = torch.arange(size).float()
    horiz = (grid[None, :, None] % 4 < 2).float().expand(n, size, size)
    vert = (grid[None, None, :] % 4 < 2).float().expand(n, size, size)
    img = torch.where(y[:, None, None] == 1, horiz, vert) + 0.3 * torch.randn(n, size, size, generator=g)
    return img.unsqueeze(1), y


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        return self.fc(x.mean(dim=(2, 3)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--logdir", default="runs/stripes")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    images, labels = stripes()
    val_images = stripes(8, seed=1)[0].to(device)
    loader = DataLoader(TensorDataset(images, labels), batch_size=32, shuffle=True)
    model = SmallCNN().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    writer = SummaryWriter(args.logdir)

    images, labels = next(iter(loader))
    images, labels = images.to(device), labels.to(device)  # expect: DEV003
    writer.add_graph(model, images)

    step = 0
    for epoch in range(args.epochs):
        for images, labels in loader:
            logits = model(images)  # also: DEV002
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            writer.add_scalar("train/loss", loss.item(), step)
            step += 1
        filters = model.conv1.weight.detach()
        filters = (filters - filters.min()) / (filters.max() - filters.min())
        writer.add_images("conv1/filters", filters, epoch)

        with torch.no_grad():
            probs = model(val_images).softmax(1)
        fig, axes = plt.subplots(1, 4, figsize=(8, 2))
        for ax, img, p in zip(axes, val_images[:4], probs[:4]):
            ax.imshow(img[0].numpy(), cmap="gray")  # expect: DEV011
            ax.set_title(f"p(h)={p[1].item():.2f}")
            ax.axis("off")
        writer.add_figure("val/predictions", fig, epoch)
    writer.close()


if __name__ == "__main__":
    main()
