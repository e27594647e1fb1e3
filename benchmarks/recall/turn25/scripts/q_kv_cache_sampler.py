"""Tiny decoder-only LM with a hand-rolled KV cache and a sampling loop.

Incremental decoding: the prompt is run once, then one token at a time with the
cached keys/values. Sampling applies a repetition penalty and temperature.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, cache=None):
        b, t, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.n_heads, -1).transpose(1, 2) for z in (q, k, v))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None and t > 1)
        y = y.transpose(1, 2).reshape(b, t, d)
        return self.out(y), (k, v)


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d_model=32, n_heads=4, n_layers=2, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(CachedAttention(d_model, n_heads) for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, input_ids, position_ids, caches=None):
        h = self.tok(input_ids) + self.pos(position_ids)
        new_caches = []
        for i, layer in enumerate(self.layers):
            a, c = layer(h, None if caches is None else caches[i])
            h = h + a
            new_caches.append(c)
        return self.head(self.norm(h)), new_caches


def apply_repetition_penalty(logits, generated, penalty):
    scale = torch.ones(logits.size(-1))  # expect: DEV006
    scale[generated.unique()] = penalty
    return torch.where(logits > 0, logits / scale, logits * scale)


@torch.no_grad()
def generate(model, prompt, max_new_tokens, temperature, penalty):
    device = prompt.device
    positions = torch.arange(prompt.size(1), device=device).unsqueeze(0)
    logits, caches = model(prompt, positions)
    generated = prompt
    for step in range(max_new_tokens):
        next_logits = apply_repetition_penalty(logits[:, -1], generated[0], penalty)
        probs = F.softmax(next_logits / temperature, dim=-1)
        next_tok = torch.multinomial(probs, 1)
        generated = torch.cat([generated, next_tok], dim=1)
        cur = generated.size(1) - 1
        position_ids = torch.arange(cur, cur + 1).unsqueeze(0)  # expect: DEV006
        logits, caches = model(next_tok, position_ids, caches)
    return generated


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--no-cuda", action="store_true")
    p.add_argument("--max-new-tokens", type=int, default=12)
    p.add_argument("--temperature", type=float, default=0.8)
    p.add_argument("--penalty", type=float, default=1.3)
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    torch.manual_seed(0)
    model = TinyLM().to(device).eval()
    prompt = torch.randint(0, 64, (1, 5), device=device)
    out = generate(model, prompt, args.max_new_tokens, args.temperature, args.penalty)
    print("generated ids:", out[0].tolist())


if __name__ == "__main__":
    main()
