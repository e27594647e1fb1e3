"""LoRA on a pretrained MLP-Mixer-ish image model: adapters are created on the
device and dtype of the layer they wrap, so injecting them after the model
moved is fine; a bottleneck adapter head is added and moved explicitly.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        w = base.weight
        self.lora_a = nn.Parameter(torch.randn(r, base.in_features, device=w.device, dtype=w.dtype) * 0.01)
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, r, device=w.device, dtype=w.dtype))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + F.linear(F.linear(x, self.lora_a), self.lora_b) * self.scale


class Mixer(nn.Module):
    def __init__(self, patches=16, dim=32, classes=10):
        super().__init__()
        self.embed = nn.Linear(48, dim)
        self.token_mlp = nn.Sequential(nn.Linear(patches, patches), nn.GELU())
        self.channel_mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        b = x.shape[0]
        p = x.unfold(2, 4, 4).unfold(3, 4, 4).permute(0, 2, 3, 1, 4, 5).reshape(b, 16, 48)
        h = self.embed(p)
        h = h + self.token_mlp(h.transpose(1, 2)).transpose(1, 2)
        h = h + self.channel_mlp(h)
        return self.head(h.mean(1))


def add_lora(model, r):
    for module in [model.token_mlp, model.channel_mlp]:
        module[0] = LoRALinear(module[0], r=r)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rank", type=int, default=4)
    parser.add_argument("--steps", type=int, default=15)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = Mixer().to(device)
    model.requires_grad_(False)
    add_lora(model, args.rank)
    model.head = nn.Sequential(nn.Linear(32, 8), nn.ReLU(), nn.Linear(8, 10)).to(device)

    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(params, lr=1e-3)
    for _ in range(args.steps):
        x = torch.randn(8, 3, 16, 16, device=device)
        y = torch.randint(0, 10, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"{len(params)} trainable tensors, loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
