"""Parameter-efficient fine-tuning of a small transformer encoder: load the
base model, freeze it, inject LoRA adapters into the feed-forward
projections of every block, train only the adapters.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.lora_a = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_a, a=math.sqrt(5))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_a.t() @ self.lora_b.t()) * self.scale


def inject_lora(model, target_names=("fc1", "fc2"), r=4):
    replaced = 0
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if name in target_names and isinstance(child, nn.Linear):
                setattr(parent, name, LoRALinear(child, r=r))  # expect: DEV015
                replaced += 1
    return replaced


class Block(nn.Module):
    def __init__(self, dim, heads=4, hidden=128):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.fc2(F.gelu(self.fc1(self.norm2(x))))


class Encoder(nn.Module):
    def __init__(self, vocab=500, dim=64, layers=2, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.Sequential(*[Block(dim) for _ in range(layers)])
        self.cls = nn.Linear(dim, classes)

    def forward(self, ids):
        return self.cls(self.blocks(self.emb(ids)).mean(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rank", type=int, default=4)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = Encoder()
    # model.load_state_dict(torch.load("encoder_base.pt", map_location="cpu"))
    model.to(device)
    model.requires_grad_(False)
    n = inject_lora(model, r=args.rank)
    model.cls.requires_grad_(True)
    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"injected {n} adapters, {sum(p.numel() for p in trainable)} trainable parameters")

    optimizer = torch.optim.AdamW(trainable, lr=1e-3)
    for step in range(args.steps):
        ids = torch.randint(0, 500, (16, 24), device=device)
        labels = (ids[:, 0] % 3).long()
        loss = F.cross_entropy(model(ids), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"final loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
