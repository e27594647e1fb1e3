"""Single-scale grid detector: class logits and box deltas per cell, decoded against cell anchors."""
import torch
import torch.nn as nn

from config import ANCHOR_SIZE, NUM_CLASSES, STRIDE


class GridDetector(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.cls_head = nn.Conv2d(width, NUM_CLASSES + 1, 1)
        self.box_head = nn.Conv2d(width, 4, 1)
        self.reset_parameters()

    def reset_parameters(self, prior_prob=0.01):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
                nn.init.zeros_(m.bias)
        bias = -torch.log(torch.tensor((1 - prior_prob) / prior_prob)).item()
        nn.init.constant_(self.cls_head.bias[1:], bias)

    def forward(self, images):
        feat = self.backbone(images)
        b, _, fh, fw = feat.shape
        cls = self.cls_head(feat).flatten(2).transpose(1, 2)
        deltas = self.box_head(feat).flatten(2).transpose(1, 2)
        grid = torch.cartesian_prod(torch.arange(fh), torch.arange(fw)).float()  # expect: DEV006
        centers = (grid.flip(-1) + 0.5) * STRIDE
        return {"cls": cls, "deltas": deltas, "boxes": self.decode(deltas, centers)}

    @staticmethod
    def decode(deltas, centers):
        xy = centers + deltas[..., :2] * ANCHOR_SIZE
        wh = deltas[..., 2:].clamp(max=3).exp() * ANCHOR_SIZE
        return torch.cat([xy - wh / 2, xy + wh / 2], dim=-1)
