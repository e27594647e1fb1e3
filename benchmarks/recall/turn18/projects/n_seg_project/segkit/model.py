import torch
import torch.nn as nn
import torch.nn.functional as F


class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("mean", torch.tensor(mean).view(1, -1, 1, 1))
        self.register_buffer("std", torch.tensor(std).view(1, -1, 1, 1))

    def forward(self, x):
        return (x - self.mean) / self.std


class MiniUNet(nn.Module):
    def __init__(self, num_classes, mean, std, width=16):
        super().__init__()
        self.norm = Normalize(mean, std)
        self.down = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.Conv2d(width + 3, width, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(width, num_classes, 1)

    def forward(self, x):
        x = self.norm(x)
        h = self.down(x)
        h = F.interpolate(h, size=x.shape[-2:], mode="bilinear", align_corners=False)
        return self.head(self.up(torch.cat([h, x], dim=1)))
