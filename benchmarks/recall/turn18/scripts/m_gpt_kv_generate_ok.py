"""Tiny decoder with a static KV cache; prompt prefill then top-k/top-p decoding."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache(nn.Module):
    def __init__(self, b, h, t, d):
        super().__init__()
        self.register_buffer("k", torch.zeros(b, h, t, d), persistent=False)
        self.register_buffer("v", torch.zeros(b, h, t, d), persistent=False)

    def update(self, start, k, v):
        end = start + k.size(2)
        self.k[:, :, start:end] = k
        self.v[:, :, start:end] = v
        return self.k[:, :, :end], self.v[:, :, :end]


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.cache = None

    def forward(self, x, start):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.h, D // self.h).transpose(1, 2) for t in (q, k, v))
        if self.cache is not None:
            k, v = self.cache.update(start, k, v)
        S = k.size(2)
        mask = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(S - T)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.proj(a.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.ln2(x))


class Decoder(nn.Module):
    def __init__(self, vocab=256, d=64, h=4, n=2, max_len=128):
        super().__init__()
        self.h, self.hd = h, d // h
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList(Layer(d, h) for _ in range(n))
        self.head = nn.Linear(d, vocab)

    def setup_caches(self, batch, max_len):
        device = self.tok.weight.device
        for layer in self.layers:
            layer.cache = KVCache(batch, self.h, max_len, self.hd).to(device)

    def forward(self, idx, start=0):
        pos = torch.arange(start, start + idx.size(1), device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for layer in self.layers:
            x = layer(x, start)
        return self.head(x)


def filter_logits(logits, top_k=0, top_p=1.0):
    if top_k:
        kth = torch.topk(logits, top_k).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p < 1.0:
        s, i = logits.sort(descending=True)
        probs = s.softmax(-1)
        drop = probs.cumsum(-1) - probs > top_p
        logits = logits.masked_fill(drop.scatter(-1, i, drop), float("-inf"))
    return logits


@torch.no_grad()
def generate(model, prompt, new_tokens, temperature=0.8, top_k=50, top_p=0.95):
    model.setup_caches(prompt.size(0), prompt.size(1) + new_tokens)
    logits = model(prompt)[:, -1]
    out = prompt
    for i in range(new_tokens):
        probs = filter_logits(logits / temperature, top_k, top_p).softmax(-1)
        nxt = torch.multinomial(probs, 1)
        out = torch.cat([out, nxt], dim=1)
        logits = model(nxt, start=out.size(1) - 1)[:, -1]
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")
    torch.manual_seed(0)
    model = Decoder().to(device).eval()
    prompt_ids = [3, 14, 15, 92, 65]
    prompt = torch.tensor([prompt_ids], dtype=torch.long, device=device)
    print(generate(model, prompt, 20)[0].tolist())
