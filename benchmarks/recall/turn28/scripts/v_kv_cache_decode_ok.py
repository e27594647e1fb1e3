"""Greedy / temperature decoding with a key-value cache for a small decoder-only
model (weights random here; a real run loads a checkpoint)."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head, self.hd = n_head, d // n_head
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.kv_cache = None

    def setup_cache(self, batch, max_len):
        w = self.qkv.weight
        self.kv_cache = torch.zeros(2, batch, self.n_head, max_len, self.hd, device=w.device, dtype=w.dtype)

    def forward(self, x, start):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_head, self.hd).permute(2, 0, 3, 1, 4)
        self.kv_cache[0, :, :, start:start + T] = k
        self.kv_cache[1, :, :, start:start + T] = v
        keys = self.kv_cache[0, :, :, :start + T]
        values = self.kv_cache[1, :, :, :start + T]
        att = q @ keys.transpose(-2, -1) / math.sqrt(self.hd)
        if T > 1:
            causal = torch.ones(T, start + T, dtype=torch.bool, device=x.device).tril(diagonal=start)
            att = att.masked_fill(~causal, float("-inf"))
        y = att.softmax(-1) @ values
        return self.out(y.transpose(1, 2).reshape(B, T, C))


class Decoder(nn.Module):
    def __init__(self, vocab, d=64, n_head=4, n_layer=2, max_pos=256):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.layers = nn.ModuleList([CachedAttention(d, n_head) for _ in range(n_layer)])
        self.norms = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layer)])
        self.head = nn.Linear(d, vocab)

    def setup_cache(self, batch, max_len):
        for layer in self.layers:
            layer.setup_cache(batch, max_len)

    def forward(self, ids, start=0):
        T = ids.size(1)
        pos_ids = torch.arange(start, start + T, device=ids.device)
        x = self.tok(ids) + self.pos(pos_ids)[None]
        for norm, layer in zip(self.norms, self.layers):
            x = x + layer(norm(x), start)
        return self.head(x)


@torch.no_grad()
def generate(model, prompt, max_new, device, temperature=0.0, eos_id=None):
    model.eval()
    model.setup_cache(prompt.size(0), prompt.size(1) + max_new)
    prompt = prompt.to(device)
    logits = model(prompt, start=0)[:, -1]
    out, pos = [prompt], prompt.size(1)
    for _ in range(max_new):
        if temperature > 0:
            nxt = torch.multinomial(F.softmax(logits / temperature, -1), 1)
        else:
            nxt = logits.argmax(-1, keepdim=True)
        out.append(nxt)
        if eos_id is not None and bool((nxt == eos_id).all()):
            break
        logits = model(nxt, start=pos)[:, -1]
        pos += 1
    return torch.cat(out, dim=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", action="store_true")
    parser.add_argument("--max-new", type=int, default=24)
    parser.add_argument("--temperature", type=float, default=0.7)
    args = parser.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")
    torch.manual_seed(0)
    model = Decoder(vocab=100).to(device)
    prompt = torch.randint(0, 100, (2, 6))
    seqs = generate(model, prompt, args.max_new, device, temperature=args.temperature)
    print(seqs.shape, seqs[0].tolist())


if __name__ == "__main__":
    main()
