"""LoRA adapters for a frozen MLP-mixer style audio classifier, with merge-for-inference."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    """Wraps an existing nn.Linear; adapter weights follow the wrapped weight's device/dtype."""

    def __init__(self, base: nn.Linear, r: int = 4, alpha: float = 8.0):
        super().__init__()
        self.base = base
        self.r, self.scale = r, alpha / r
        w = base.weight
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features, device=w.device, dtype=w.dtype) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, device=w.device, dtype=w.dtype))
        self.merged = False

    def forward(self, x):
        y = self.base(x)
        if not self.merged:
            y = y + F.linear(F.linear(x, self.lora_A), self.lora_B) * self.scale
        return y

    @torch.no_grad()
    def merge(self):
        self.base.weight += (self.lora_B @ self.lora_A) * self.scale
        self.merged = True


def add_lora(model: nn.Module, target: str = "fc", r: int = 4):
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, nn.Linear) and name.startswith(target):
                setattr(parent, name, LoRALinear(child, r=r))
    for n, p in model.named_parameters():
        p.requires_grad = "lora_" in n
    return model


class MixerBlock(nn.Module):
    def __init__(self, dim, tokens):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.fc_token = nn.Linear(tokens, tokens)
        self.fc_channel1 = nn.Linear(dim, 2 * dim)
        self.fc_channel2 = nn.Linear(2 * dim, dim)

    def forward(self, x):
        x = x + self.fc_token(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.fc_channel2(F.gelu(self.fc_channel1(self.norm2(x))))


class Mixer(nn.Module):
    def __init__(self, n_mels=32, frames=20, dim=48, depth=2, classes=5):
        super().__init__()
        self.embed = nn.Linear(n_mels, dim)
        self.blocks = nn.Sequential(*[MixerBlock(dim, frames) for _ in range(depth)])
        self.head = nn.Linear(dim, classes)

    def forward(self, mel):
        return self.head(self.blocks(self.embed(mel)).mean(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--rank", type=int, default=4)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = Mixer().to(device)
    add_lora(model, target="fc", r=args.rank)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)

    mel = torch.randn(128, 20, 32)
    labels = (mel[:, :, :4].mean((1, 2)) > 0).long()
    for step in range(args.steps):
        idx = torch.randint(0, 128, (16,))
        x, y = mel[idx].to(device), labels[idx].to(device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        x_val = mel[:32].to(device)
        before = model(x_val)
        for m in model.modules():
            if isinstance(m, LoRALinear):
                m.merge()
        after = model(x_val)
    print(f"final loss {loss.item():.3f}, merge max diff {(before - after).abs().max().item():.2e}")


if __name__ == "__main__":
    main()
