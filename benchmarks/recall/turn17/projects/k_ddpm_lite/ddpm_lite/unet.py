import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SinusoidalEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device, dtype=torch.float32) / half)
        args = t.float()[:, None] * freqs[None]
        return torch.cat([args.sin(), args.cos()], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, cin, cout, tdim, groups=8):
        super().__init__()
        self.n1, self.c1 = nn.GroupNorm(min(groups, cin), cin), nn.Conv2d(cin, cout, 3, padding=1)
        self.t = nn.Linear(tdim, cout)
        self.n2, self.c2 = nn.GroupNorm(groups, cout), nn.Conv2d(cout, cout, 3, padding=1)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x, temb):
        h = self.c1(F.silu(self.n1(x)))
        h = h + self.t(temb)[:, :, None, None]
        h = self.c2(F.silu(self.n2(h)))
        return h + self.skip(x)


class TinyUNet(nn.Module):
    def __init__(self, in_ch=1, ch=32, tdim=64):
        super().__init__()
        self.time = nn.Sequential(SinusoidalEmbedding(tdim), nn.Linear(tdim, tdim), nn.SiLU(), nn.Linear(tdim, tdim))
        self.inc = nn.Conv2d(in_ch, ch, 3, padding=1)
        self.down = nn.ModuleList([ResBlock(ch, ch, tdim), ResBlock(ch, 2 * ch, tdim)])
        self.mid = ResBlock(2 * ch, 2 * ch, tdim)
        self.up = nn.ModuleList([ResBlock(4 * ch, ch, tdim), ResBlock(2 * ch, ch, tdim)])
        self.out = nn.Sequential(nn.GroupNorm(8, ch), nn.SiLU(), nn.Conv2d(ch, in_ch, 3, padding=1))

    def forward(self, x, t):
        temb = self.time(t)
        h = self.inc(x)
        skips = []
        for i, blk in enumerate(self.down):
            h = blk(h, temb)
            skips.append(h)
            if i == 0:
                h = F.avg_pool2d(h, 2)
        h = self.mid(h, temb)
        for i, blk in enumerate(self.up):
            h = blk(torch.cat([h, skips.pop()], dim=1), temb)
            if i == 0:
                h = F.interpolate(h, scale_factor=2, mode="nearest")
        return self.out(h)
