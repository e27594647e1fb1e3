import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        scale = math.log(10000) / (half - 1)
        freqs = torch.exp(torch.arange(half) * -scale)  # expect: DEV006
        emb = t[:, None].float() * freqs[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


class ResnetBlock(nn.Module):
    def __init__(self, dim_in, dim_out, time_dim, groups=8):
        super().__init__()
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(time_dim, dim_out))
        self.block1 = nn.Sequential(nn.Conv2d(dim_in, dim_out, 3, padding=1), nn.GroupNorm(groups, dim_out), nn.SiLU())
        self.block2 = nn.Sequential(nn.Conv2d(dim_out, dim_out, 3, padding=1), nn.GroupNorm(groups, dim_out), nn.SiLU())
        self.res_conv = nn.Conv2d(dim_in, dim_out, 1) if dim_in != dim_out else nn.Identity()

    def forward(self, x, t_emb):
        h = self.block1(x) + self.mlp(t_emb)[:, :, None, None]
        return self.block2(h) + self.res_conv(x)


class Unet(nn.Module):
    def __init__(self, dim=32, channels=3, dim_mults=(1, 2)):
        super().__init__()
        time_dim = dim * 4
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(dim), nn.Linear(dim, time_dim), nn.GELU(),
                                      nn.Linear(time_dim, time_dim))
        self.init_conv = nn.Conv2d(channels, dim, 3, padding=1)
        dims = [dim] + [dim * m for m in dim_mults]
        self.downs = nn.ModuleList()
        self.ups = nn.ModuleList()
        for d_in, d_out in zip(dims[:-1], dims[1:]):
            self.downs.append(nn.ModuleList([ResnetBlock(d_in, d_out, time_dim),
                                             nn.Conv2d(d_out, d_out, 4, 2, 1)]))
        for d_in, d_out in reversed(list(zip(dims[:-1], dims[1:]))):
            self.ups.append(nn.ModuleList([nn.ConvTranspose2d(d_out, d_out, 4, 2, 1),
                                           ResnetBlock(d_out * 2, d_in, time_dim)]))
        self.mid = ResnetBlock(dims[-1], dims[-1], time_dim)
        self.final_conv = nn.Conv2d(dim, channels, 1)

    def forward(self, x, time):
        t = self.time_mlp(time)
        x = self.init_conv(x)
        skips = []
        for block, down in self.downs:
            x = block(x, t)
            skips.append(x)
            x = down(x)
        x = self.mid(x, t)
        for up, block in self.ups:
            x = up(x)
            x = block(torch.cat([x, skips.pop()], dim=1), t)
        return self.final_conv(x)
