"""CLIP-style contrastive training where 0-dim CPU tensors meet device tensors in arithmetic, which PyTorch
allows: a loss weight, a margin, a step counter."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, img_dim=512, txt_dim=384, dim=128):
        super().__init__()
        self.img = nn.Linear(img_dim, dim)
        self.txt = nn.Linear(txt_dim, dim)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, img, txt):
        return F.normalize(self.img(img), dim=-1), F.normalize(self.txt(txt), dim=-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = DualEncoder().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    aux_weight = torch.tensor(0.25)
    margin = torch.tensor(0.2)
    step = torch.tensor(0)
    for _ in range(20):
        img = torch.randn(32, 512, device=device)
        txt = torch.randn(32, 384, device=device)
        zi, zt = model(img, txt)
        scale = model.logit_scale.clamp(max=math.log(100.0)).exp()
        logits = scale * zi @ zt.T
        targets = torch.arange(32, device=device)
        loss = (F.cross_entropy(logits, targets) + F.cross_entropy(logits.T, targets)) / 2
        loss = loss + aux_weight * F.relu(margin - (zi * zt).sum(-1)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
    print(int(step), loss.item())


if __name__ == "__main__":
    main()
