"""Binary segmentation with a tiny U-Net-like model; the loader yields images and masks, and
both are moved with non_blocking copies from pinned memory."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(8, 8, 2, stride=2)
        self.out = nn.Conv2d(9, 1, 1)

    def forward(self, x):
        h = self.up(self.mid(self.down(x)))
        return self.out(torch.cat([h, x], dim=1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    imgs = torch.randn(96, 1, 32, 32)
    masks = (imgs > 0.5).float()
    loader = DataLoader(TensorDataset(imgs, masks), batch_size=16, shuffle=True,
                        pin_memory=torch.cuda.is_available())
    model = TinyUNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for img, mask in loader:
            img = img.to(device, non_blocking=True)
            mask.to(device, non_blocking=True)  # expect: DEV005
            logits = model(img)
            loss = F.binary_cross_entropy_with_logits(logits, mask)  # also: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
