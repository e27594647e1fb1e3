"""Hand-rolled LoRA fine-tuning where the adapter matrices are created on the
device and dtype of the wrapped layer, so injecting after .to(device) is fine."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.scale = alpha / rank
        w = base.weight
        self.lora_A = nn.Parameter(torch.empty(rank, base.in_features, device=w.device, dtype=w.dtype))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank, device=w.device, dtype=w.dtype))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


class Encoder(nn.Module):
    def __init__(self, d=48, hidden=96):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.ff1 = nn.Linear(d, hidden)
        self.ff2 = nn.Linear(hidden, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        attn = torch.softmax(self.q(x) @ x.transpose(1, 2) / x.shape[-1] ** 0.5, dim=-1) @ self.v(x)
        h = self.norm(x + attn)
        return self.norm(h + self.ff2(F.gelu(self.ff1(h))))


class Classifier(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.encoder = Encoder()
        self.head = nn.Linear(48, n_cls)

    def forward(self, x):
        return self.head(self.encoder(x).mean(1))


def inject_lora(module, targets, rank):
    for name, child in list(module.named_children()):
        if name in targets and isinstance(child, nn.Linear):
            setattr(module, name, LoRALinear(child, rank=rank))
        else:
            inject_lora(child, targets, rank)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rank", type=int, default=4)
    ap.add_argument("--targets", default="q,v")
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"

    model = Classifier()
    model.to(device)
    model.encoder.requires_grad_(False)
    inject_lora(model.encoder, set(args.targets.split(",")), args.rank)

    trainable = [p for p in model.parameters() if p.requires_grad]
    print("trainable params:", sum(p.numel() for p in trainable))
    opt = torch.optim.AdamW(trainable, lr=2e-3)

    x = torch.randn(96, 10, 48)
    y = (x[:, :, 0].mean(1) > 0).long() + (x[:, :, 1].mean(1) > 0.2).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
