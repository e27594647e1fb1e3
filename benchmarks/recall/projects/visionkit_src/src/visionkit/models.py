import torch
import torch.nn as nn


class PatchClassifier(nn.Module):
    """Splits the image into patches, embeds them and averages the tokens."""

    def __init__(self, num_classes, image_size=32, patch=8, dim=64):
        super().__init__()
        self.num_patches = (image_size // patch) ** 2
        self.embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.pos = torch.randn(1, self.num_patches, dim) * 0.02  # expect: DEV010
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        tokens = self.embed(x).flatten(2).transpose(1, 2)
        tokens = tokens + self.pos
        tokens = tokens + self.mlp(self.norm(tokens))
        return self.head(tokens.mean(dim=1))
