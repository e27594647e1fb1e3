"""Char-level GPT with rotary embeddings, optional torch.compile and
activation checkpointing, trained on a repeated toy text.

    python l_compile_rope_gpt.py --compile --grad-ckpt
"""
import argparse
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

TEXT = ("the quick brown fox jumps over the lazy dog. " * 40
        + "pack my box with five dozen liquor jugs. " * 40)


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim, base=10000.0):
        super().__init__()
        self.inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))  # expect: DEV010

    def forward(self, seq_len, device):
        t = torch.arange(seq_len, device=device, dtype=torch.float32)
        freqs = torch.outer(t, self.inv_freq)
        return freqs.cos(), freqs.sin()


def apply_rotary(x, cos, sin):
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
    return out.flatten(-2)


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, cos, sin):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2) for t in (q, k, v))
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(att.transpose(1, 2).reshape(B, T, C))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab, dim=64, n_heads=4, n_layers=3, grad_ckpt=False):
        super().__init__()
        self.grad_ckpt = grad_ckpt
        self.wte = nn.Embedding(vocab, dim)
        self.rope = RotaryEmbedding(dim // n_heads)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.wte.weight
        nn.init.normal_(self.wte.weight, std=0.02)

    def forward(self, idx, targets=None):
        x = self.wte(idx)
        cos, sin = self.rope(idx.size(1), idx.device)
        for block in self.blocks:
            if self.grad_ckpt and self.training:
                x = checkpoint(block, x, cos, sin, use_reentrant=False)
            else:
                x = block(x, cos, sin)
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def get_batch(data, block, bs, device):
    ix = torch.randint(len(data) - block - 1, (bs,))
    x = torch.stack([data[i:i + block] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block] for i in ix])
    return x.to(device), y.to(device)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--block", type=int, default=32)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("--grad-ckpt", action="store_true")
    args = ap.parse_args()

    device = "cuda" if torch.cuda.is_available() else "cpu"
    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)

    model = GPT(len(chars), grad_ckpt=args.grad_ckpt).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    train_model = torch.compile(model) if args.compile else model

    t0 = time.time()
    for step in range(args.steps):
        x, y = get_batch(data, args.block, args.batch_size, device)
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=device == "cuda"):
            _, loss = train_model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 20 == 0 or step == args.steps - 1:
            print(f"step {step:3d} loss {loss.item():.3f} ppl {math.exp(loss.item()):.1f} "
                  f"({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
