"""LoRA fine-tuning of a pretrained transformer forecaster on a new sensor's series.

From LoRA threads: "LORA error when running train_text_to_image_lora.py ... cuda:0 and cpu!"
(diffusers #5897: "the LORA parameters is added to the Unet after unet is send to GPU") and
"fix: create LoRA parameters on base weight device instead of CPU" (`inject_lora()` after
`model.to('cuda')`), here with hand-written LoRA layers swapped into the attention projections.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.q_proj, self.k_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.v_proj, self.o_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        split = lambda z: z.view(b, t, self.heads, d // self.heads).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.q_proj(x)), split(self.k_proj(x)), split(self.v_proj(x))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = Attention(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Forecaster(nn.Module):
    def __init__(self, dim=32, depth=2, max_len=64):
        super().__init__()
        self.inp = nn.Linear(1, dim)
        pos = torch.arange(max_len).unsqueeze(1)
        freq = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
        pe = torch.zeros(max_len, dim)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq)
        self.register_buffer("pe", pe)
        self.blocks = nn.ModuleList(Block(dim) for _ in range(depth))
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        h = self.inp(x.unsqueeze(-1)) + self.pe[: x.size(1)]
        for blk in self.blocks:
            h = blk(h)
        return self.out(h).squeeze(-1)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.lora_a = nn.Parameter(torch.randn(rank, base.in_features) * 0.01)
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, rank))
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + (x @ self.lora_a.T @ self.lora_b.T) * self.scale


def series(n, phase, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    return torch.sin(t / 4 + phase) + 0.1 * torch.randn(n, generator=g)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    pretrained = Forecaster().state_dict()
    model = Forecaster().to(device)
    model.load_state_dict(pretrained)
    for p in model.parameters():
        p.requires_grad_(False)
    for blk in model.blocks:
        for name in ("q_proj", "v_proj"):
            setattr(blk.attn, name, LoRALinear(getattr(blk.attn, name)))  # expect: DEV015

    data = series(2000, phase=1.3, seed=1)
    windows = data.unfold(0, 33, 8)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=3e-3)
    for step in range(150):
        batch = windows[torch.randint(0, windows.size(0), (32,))].to(device)
        pred = model(batch[:, :-1])
        loss = F.mse_loss(pred, batch[:, 1:])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"step {step}: mse {loss.item():.4f} ({sum(p.numel() for p in trainable)} trainable)")


if __name__ == "__main__":
    main()
