"""Tiny encoder-decoder for 3-class segmentation of synthetic shapes, validated with mIoU."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from torchmetrics.classification import MulticlassJaccardIndex


class ShapesSeg(Dataset):
    """Background (0), squares (1) and discs (2) on noisy 64x64 images."""

    def __init__(self, n=200, size=64, seed=0):
        self.n, self.size, self.seed = n, size, seed

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(self.seed * 100003 + i)
        s = self.size
        mask = torch.zeros(s, s, dtype=torch.long)
        yy, xx = torch.meshgrid(torch.arange(s), torch.arange(s), indexing="ij")
        for _ in range(3):
            cy, cx = torch.randint(8, s - 8, (2,), generator=g).tolist()
            r = int(torch.randint(4, 8, (1,), generator=g))
            if torch.rand(1, generator=g) < 0.5:
                mask[max(cy - r, 0):cy + r, max(cx - r, 0):cx + r] = 1
            else:
                mask[((yy - cy) ** 2 + (xx - cx) ** 2) < r * r] = 2
        image = mask.float().unsqueeze(0).repeat(3, 1, 1) / 2 + 0.3 * torch.randn(3, s, s, generator=g)
        return image, mask


class SegNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.dec = nn.Sequential(nn.Conv2d(32, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, n_classes, 1))

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(e1)
        return self.dec(torch.cat([self.up(e2), e1], dim=1))


def validate(model, loader, device, n_classes=3):
    model.eval()
    miou = MulticlassJaccardIndex(num_classes=n_classes, average="macro")  # expect: DEV019
    with torch.no_grad():
        for images, masks in loader:
            images, masks = images.to(device), masks.to(device)
            preds = model(images).argmax(dim=1)
            miou.update(preds, masks)  # also: DEV019
    return miou.compute().item()


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(ShapesSeg(160, seed=0), batch_size=16, shuffle=True)
    val_loader = DataLoader(ShapesSeg(40, seed=1), batch_size=20)
    model = SegNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(3):
        model.train()
        for images, masks in train_loader:
            images, masks = images.to(device), masks.to(device)
            loss = F.cross_entropy(model(images), masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}  loss {loss.item():.4f}  val mIoU {validate(model, val_loader, device):.3f}")


if __name__ == "__main__":
    main()
