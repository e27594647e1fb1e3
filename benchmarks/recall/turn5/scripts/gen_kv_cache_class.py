"""Greedy decoding for a small decoder-only LM with a preallocated key/value cache object."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache:
    def __init__(self, n_layers, batch, heads, max_len, head_dim, dtype=torch.float32):
        shape = (n_layers, batch, heads, max_len, head_dim)
        self.k = torch.zeros(shape, dtype=dtype)  # expect: DEV006
        self.v = torch.zeros(shape, dtype=dtype)  # expect: DEV006
        self.length = 0

    def update(self, layer, k, v):
        t = k.size(2)
        self.k[layer, :, :, self.length:self.length + t] = k
        self.v[layer, :, :, self.length:self.length + t] = v
        return self.k[layer, :, :, :self.length + t], self.v[layer, :, :, :self.length + t]


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, cache, layer):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        k, v = cache.update(layer, k, v)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(self.hd)
        if t > 1:
            att = att.masked_fill(torch.triu(torch.ones(t, t, dtype=torch.bool, device=x.device), 1), float("-inf"))
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.proj(y)
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=256, d=128, heads=4, layers=2, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, cache):
        pos = torch.arange(cache.length, cache.length + ids.size(1), device=ids.device)
        x = self.tok(ids) + self.pos(pos)
        for i, blk in enumerate(self.blocks):
            x = blk(x, cache, i)
        cache.length += ids.size(1)
        return self.head(x)


@torch.no_grad()
def generate(model, prompt, steps):
    cache = KVCache(len(model.blocks), prompt.size(0), 4, 128, 32)
    logits = model(prompt, cache)
    out = [prompt]
    for _ in range(steps):
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        out.append(nxt)
        logits = model(nxt, cache)
    return torch.cat(out, 1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=32)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyLM().to(device).eval()
    prompt = torch.randint(0, 256, (2, 8), device=device)
    print(generate(model, prompt, args.steps).shape)
