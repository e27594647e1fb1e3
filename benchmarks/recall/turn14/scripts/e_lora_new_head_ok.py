# Adapter fine-tuning of a small MLP-mixer style encoder on a new label set:
# LoRA on the token-mixing linears, a fresh classifier head, head re-init between
# folds via reset_parameters().
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRA(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8.0):
        super().__init__()
        self.base = base.requires_grad_(False)
        w = base.weight
        self.A = nn.Parameter(torch.empty(r, base.in_features, device=w.device, dtype=w.dtype))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, device=w.device, dtype=w.dtype))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + F.linear(F.linear(x, self.A), self.B) * self.scale


class MixerBlock(nn.Module):
    def __init__(self, tokens, dim):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.token_mix = nn.Linear(tokens, tokens)
        self.channel_mix = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + self.token_mix(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.channel_mix(self.norm2(x))


class Mixer(nn.Module):
    def __init__(self, tokens=16, dim=32, depth=2, n_classes=10):
        super().__init__()
        self.proj = nn.Linear(12, dim)
        self.blocks = nn.Sequential(*[MixerBlock(tokens, dim) for _ in range(depth)])
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        return self.head(self.blocks(self.proj(x)).mean(1))


class Head(nn.Module):
    def __init__(self, dim, n_classes):
        super().__init__()
        self.fc = nn.Linear(dim, n_classes)
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.trunc_normal_(self.fc.weight, std=0.02)
        nn.init.zeros_(self.fc.bias)

    def forward(self, x):
        return self.fc(x)


def add_lora(model, r):
    for blk in model.blocks:
        blk.token_mix = LoRA(blk.token_mix, r=r)
    return model


def fold_data(n, n_classes, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, n_classes, (n,), generator=g)
    x = torch.randn(n, 16, 12, generator=g)
    x[torch.arange(n), y, :] += 1.5
    return x, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--rank", type=int, default=4)
    ap.add_argument("--n-classes", type=int, default=4)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = Mixer().to(device)
    model.requires_grad_(False)
    add_lora(model, args.rank)
    model.head = Head(32, args.n_classes).to(device)

    for fold in range(args.folds):
        model.head.reset_parameters()
        for blk in model.blocks:
            nn.init.zeros_(blk.token_mix.B)
        params = [p for p in model.parameters() if p.requires_grad]
        opt = torch.optim.AdamW(params, lr=3e-3)
        x, y = fold_data(512, args.n_classes, fold)
        for i in range(0, 512, 64):
            xb, yb = x[i:i + 64].to(device), y[i:i + 64].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        xv, yv = fold_data(128, args.n_classes, 100 + fold)
        with torch.no_grad():
            acc = (model(xv.to(device)).argmax(-1).cpu() == yv).float().mean().item()
        print(f"fold {fold}: trainable {sum(p.numel() for p in params)} loss {loss.item():.3f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
