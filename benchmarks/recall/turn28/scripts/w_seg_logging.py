"""Toy semantic segmentation with mIoU from torchmetrics, TensorBoard scalars and a matplotlib preview."""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.tensorboard import SummaryWriter
from torchmetrics.classification import MulticlassJaccardIndex

NUM_CLASSES = 3


def squares(n, size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    imgs = 0.1 * torch.randn(n, 3, size, size, generator=g)
    masks = torch.zeros(n, size, size, dtype=torch.long)
    for i in range(n):
        for cls in (1, 2):
            x0, y0 = torch.randint(0, size - 8, (2,), generator=g).tolist()
            masks[i, y0:y0 + 8, x0:x0 + 8] = cls
            imgs[i, cls, y0:y0 + 8, x0:x0 + 8] += 1.0
    return TensorDataset(imgs, masks)


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(16, NUM_CLASSES, 1)

    def forward(self, x):
        return self.cls(self.enc(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--logdir", default="runs/seg")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    train_loader = DataLoader(squares(64), batch_size=8, shuffle=True)
    val_loader = DataLoader(squares(16, seed=1), batch_size=8)
    model = SegNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    writer = SummaryWriter(args.logdir)
    miou = MulticlassJaccardIndex(num_classes=NUM_CLASSES)  # expect: DEV019

    # sanity check: one batch through the net before the real run
    images, masks = next(iter(train_loader))
    images, masks = images.to(device), masks.to(device)  # expect: DEV003
    print("sanity loss", F.cross_entropy(model(images), masks).item())

    step = 0
    for epoch in range(args.epochs):
        model.train()
        for images, masks in train_loader:
            logits = model(images)  # also: DEV002
            loss = F.cross_entropy(logits, masks)
            opt.zero_grad()
            loss.backward()
            opt.step()
            writer.add_scalar("train/loss", loss.item(), step)
            step += 1

        model.eval()
        miou.reset()
        with torch.no_grad():
            for images, masks in val_loader:
                images, masks = images.to(device), masks.to(device)
                preds = model(images).argmax(dim=1)
                miou.update(preds, masks)
        score = miou.compute().item()
        writer.add_scalar("val/miou", score, epoch)
        print(f"epoch {epoch} loss {loss.item():.3f} mIoU {score:.3f}")

    fig, axes = plt.subplots(1, 2, figsize=(6, 3))
    axes[0].imshow(masks[0].cpu().numpy(), vmin=0, vmax=NUM_CLASSES - 1)
    axes[0].set_title("target")
    axes[1].imshow(preds[0].numpy(), vmin=0, vmax=NUM_CLASSES - 1)  # expect: DEV011
    axes[1].set_title("prediction")
    fig.savefig("seg_preview.png")
    writer.add_figure("val/preview", fig, epoch)
    writer.close()


if __name__ == "__main__":
    main()
