"""Binary segmentation with a tiny U-Net; Dice + BCE loss on predicted masks."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class ToyShapes(Dataset):
    def __init__(self, n=16, size=32):
        self.images = torch.rand(n, 1, size, size)
        self.masks = (self.images > 0.7).float()

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return {"image": self.images[i], "mask": self.masks[i]}


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.bottom = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.out = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        d = self.down(x)
        b = self.bottom(F.max_pool2d(d, 2))
        return self.out(torch.cat([self.up(b), d], dim=1))


def dice_loss(probs, target, smooth=1.0):
    inter = (probs * target).sum(dim=(1, 2, 3))
    union = probs.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + smooth) / (union + smooth)).mean()


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = TinyUNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(ToyShapes(), batch_size=4, shuffle=True)

for epoch in range(2):
    for batch in loader:
        images = batch["image"].to(device)
        masks = batch["mask"]
        logits = model(images)
        loss = dice_loss(torch.sigmoid(logits), masks) + F.binary_cross_entropy_with_logits(logits, masks)  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
