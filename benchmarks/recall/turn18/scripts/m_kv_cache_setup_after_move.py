"""Greedy / top-k decoding with a static KV cache (gpt-fast style), tiny random model.

Prefill the prompt once, then decode one token at a time reusing cached keys/values.
"""
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelArgs:
    vocab_size: int = 256
    dim: int = 64
    n_head: int = 4
    n_layer: int = 2
    max_seq_len: int = 128

    @property
    def head_dim(self):
        return self.dim // self.n_head


class KVCache(nn.Module):
    def __init__(self, max_batch, n_head, max_len, head_dim, dtype=torch.float32):
        super().__init__()
        shape = (max_batch, n_head, max_len, head_dim)
        self.register_buffer("k_cache", torch.zeros(shape, dtype=dtype), persistent=False)
        self.register_buffer("v_cache", torch.zeros(shape, dtype=dtype), persistent=False)

    def update(self, start, k, v):
        end = start + k.size(2)
        self.k_cache[:, :, start:end] = k
        self.v_cache[:, :, start:end] = v
        return self.k_cache[:, :, :end], self.v_cache[:, :, :end]


class Attention(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.n_head, self.head_dim = args.n_head, args.head_dim
        self.wqkv = nn.Linear(args.dim, 3 * args.dim, bias=False)
        self.wo = nn.Linear(args.dim, args.dim, bias=False)
        self.kv_cache = None

    def forward(self, x, start):
        B, T, C = x.shape
        q, k, v = self.wqkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_head, self.head_dim).transpose(1, 2) for t in (q, k, v))
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(start, k, v)
        S = k.size(2)
        mask = torch.ones(T, S, dtype=torch.bool, device=q.device).tril(diagonal=S - T)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.wo(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.attn = Attention(args)
        self.ffn = nn.Sequential(nn.Linear(args.dim, 4 * args.dim), nn.SiLU(), nn.Linear(4 * args.dim, args.dim))
        self.n1, self.n2 = nn.LayerNorm(args.dim), nn.LayerNorm(args.dim)

    def forward(self, x, start):
        x = x + self.attn(self.n1(x), start)
        return x + self.ffn(self.n2(x))


class Transformer(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.tok = nn.Embedding(args.vocab_size, args.dim)
        self.pos = nn.Embedding(args.max_seq_len, args.dim)
        self.layers = nn.ModuleList(Block(args) for _ in range(args.n_layer))
        self.norm = nn.LayerNorm(args.dim)
        self.out = nn.Linear(args.dim, args.vocab_size, bias=False)

    def setup_caches(self, max_batch, max_len):
        for layer in self.layers:
            layer.attn.kv_cache = KVCache(max_batch, self.args.n_head, max_len, self.args.head_dim)  # expect: DEV015

    def forward(self, idx, start=0):
        T = idx.size(1)
        pos = torch.arange(start, start + T, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for layer in self.layers:
            x = layer(x, start)
        return self.out(self.norm(x))


def sample(logits, temperature=1.0, top_k=None):
    logits = logits / max(temperature, 1e-5)
    if top_k is not None:
        v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
        logits = torch.where(logits < v[..., -1:], torch.full_like(logits, -float("inf")), logits)
    return torch.multinomial(F.softmax(logits, dim=-1), 1)


@torch.no_grad()
def generate(model, prompt, max_new_tokens, **sampling):
    T = prompt.size(1)
    model.setup_caches(prompt.size(0), T + max_new_tokens)
    logits = model(prompt, start=0)
    next_tok = sample(logits[:, -1], **sampling)
    out = [next_tok]
    for i in range(max_new_tokens - 1):
        logits = model(next_tok, start=T + i)
        next_tok = sample(logits[:, -1], **sampling)
        out.append(next_tok)
    return torch.cat([prompt] + out, dim=1)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = Transformer(ModelArgs()).to(device).eval()
    prompt = torch.randint(0, 256, (1, 12), device=device)
    t0 = time.perf_counter()
    seq = generate(model, prompt, max_new_tokens=32, temperature=0.8, top_k=40)
    print(seq.shape, f"{32 / (time.perf_counter() - t0):.1f} tok/s")
