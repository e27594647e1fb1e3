"""Fine-tune a small ViT on a new label set: the pretrained head is replaced, the patch
embedding and first blocks are frozen, and the rest gets layer-wise learning-rate decay.
Training can resume from a checkpoint holding model and optimizer state."""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class ViT(nn.Module):
    def __init__(self, img=32, patch=8, dim=64, depth=4, heads=4, n_classes=1000):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        n = (img // patch) ** 2
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, n + 1, dim) * 0.02)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos_embed
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x[:, 0]))


def param_groups_llrd(model, base_lr, decay=0.75, frozen_blocks=1):
    for p in model.patch_embed.parameters():
        p.requires_grad = False
    model.pos_embed.requires_grad = False
    model.cls_token.requires_grad = False
    depth = len(model.blocks)
    groups = []
    for i, blk in enumerate(model.blocks):
        if i < frozen_blocks:
            for p in blk.parameters():
                p.requires_grad = False
            continue
        groups.append({"params": list(blk.parameters()), "lr": base_lr * decay ** (depth - i)})
    groups.append({"params": list(model.norm.parameters()) + list(model.head.parameters()), "lr": base_lr})
    return groups


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--num-classes", type=int, default=10)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--resume", default=None)
    ap.add_argument("--save", default=os.path.join(tempfile.gettempdir(), "u_vit_ft.pt"))
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = ViT()
    model.to(device)
    model.head = nn.Linear(model.head.in_features, args.num_classes)  # expect: DEV015
    optimizer = torch.optim.AdamW(param_groups_llrd(model, args.lr), weight_decay=0.05)

    start = 0
    if args.resume:
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start = ckpt["step"]

    for step in range(start, start + args.steps):
        x = torch.randn(8, 3, 32, 32, device=device)
        y = torch.randint(0, args.num_classes, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": start + args.steps}, args.save)


if __name__ == "__main__":
    main()
