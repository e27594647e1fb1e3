"""CoordConv segmentation net: pixel coordinates are appended as extra input channels so
the model can learn the usual position of the shoreline in the tile grid."""
import torch
import torch.nn as nn


def coord_channels(n, h, w, device=None):
    ys = torch.linspace(-1.0, 1.0, h, device=device).view(1, 1, h, 1).expand(n, 1, h, w)
    xs = torch.linspace(-1.0, 1.0, w, device=device).view(1, 1, 1, w).expand(n, 1, h, w)
    return torch.cat([ys, xs], dim=1)


class CoordSegNet(nn.Module):
    def __init__(self, bands, n_classes, width=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(bands + 2, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=2, dilation=2), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, n_classes, 1),
        )

    def forward(self, x):
        n, _, h, w = x.shape
        coords = coord_channels(n, h, w, device=x.device)
        return self.body(torch.cat([x, coords], dim=1))
