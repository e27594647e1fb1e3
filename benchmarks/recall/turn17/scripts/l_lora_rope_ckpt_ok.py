"""LoRA fine-tune of a small rotary-embedding LM, with activation
checkpointing and optional torch.compile.

Adapters are created on the device/dtype of the layer they wrap, so they can
be attached to an already-placed model (the same code path is used when the
base model is loaded straight onto the GPU).
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class Rotary(nn.Module):
    def __init__(self, head_dim, max_len=256, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
        t = torch.arange(max_len, dtype=torch.float32)
        freqs = torch.outer(t, inv_freq)
        self.register_buffer("cos", freqs.cos(), persistent=False)
        self.register_buffer("sin", freqs.sin(), persistent=False)

    def forward(self, x):  # x: (B, H, T, D)
        T = x.size(-2)
        cos, sin = self.cos[:T].to(x.dtype), self.sin[:T].to(x.dtype)
        x1, x2 = x[..., ::2], x[..., 1::2]
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), -1).flatten(-2)


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(dim, dim, bias=False) for _ in range(4))
        self.rope = Rotary(dim // heads)

    def forward(self, x):
        B, T, C = x.shape
        split = lambda t: t.view(B, T, self.heads, -1).transpose(1, 2)
        q, k, v = split(self.wq(x)), split(self.wk(x)), split(self.wv(x))
        y = F.scaled_dot_product_attention(self.rope(q), self.rope(k), v, is_causal=True)
        return self.wo(y.transpose(1, 2).reshape(B, T, C))


class Layer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(dim), nn.RMSNorm(dim)
        self.attn = Attn(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim, bias=False), nn.SiLU(), nn.Linear(4 * dim, dim, bias=False))

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ff(self.n2(x))


class LM(nn.Module):
    def __init__(self, vocab, dim=64, heads=4, depth=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Layer(dim, heads) for _ in range(depth))
        self.norm = nn.RMSNorm(dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        self.gradient_checkpointing = False

    def forward(self, idx):
        x = self.emb(idx)
        for layer in self.layers:
            if self.gradient_checkpointing and self.training:
                x = checkpoint(layer, x, use_reentrant=False)
            else:
                x = layer(x)
        return self.out(self.norm(x))


class LoRA(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        kw = dict(device=base.weight.device, dtype=base.weight.dtype)
        self.A = nn.Parameter(torch.randn(r, base.in_features, **kw) / math.sqrt(base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, **kw))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + F.linear(F.linear(x, self.A), self.B) * self.scale


def add_lora(model, names=("wq", "wv"), r=4):
    for layer in model.layers:
        for n in names:
            setattr(layer.attn, n, LoRA(getattr(layer.attn, n), r=r))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("--grad-ckpt", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    text = "abcabcabd " * 200
    vocab = sorted(set(text))
    data = torch.tensor([vocab.index(c) for c in text])

    model = LM(len(vocab)).to(device)
    model.requires_grad_(False)
    add_lora(model)
    model.gradient_checkpointing = args.grad_ckpt
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-2)
    step_model = torch.compile(model) if args.compile else model

    for step in range(args.steps):
        starts = torch.randint(0, len(data) - 33, (16,))
        batch = torch.stack([data[s:s + 33] for s in starts]).to(device)
        logits = step_model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"step {step}: loss {loss.item():.3f}")
    print(f"trainable {sum(p.numel() for p in params)} / {sum(p.numel() for p in model.parameters())}")


if __name__ == "__main__":
    main()
