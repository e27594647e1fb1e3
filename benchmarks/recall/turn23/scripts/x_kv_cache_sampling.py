"""Character-level decoder-only LM with a KV cache: nucleus sampling of
several continuations per prompt. Two control tokens are appended to the
vocabulary after loading, so the output head is rebuilt for the larger vocab."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BASE_VOCAB = list("abcdefghijklmnopqrstuvwxyz .,")
SPECIAL = ["<bos>", "<eos>"]


class CachedSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, cache=None):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if T > 1:
            causal = torch.ones(T, k.size(2), dtype=torch.bool, device=x.device).tril(k.size(2) - T)
            att = att.masked_fill(~causal, float("-inf"))
        y = att.softmax(-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, D)), (k, v)


class TinyLM(nn.Module):
    def __init__(self, vocab, dim=32, heads=4, layers=2, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(CachedSelfAttention(dim, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids, caches=None):
        past = 0 if caches is None else caches[0][0].size(2)
        positions = torch.arange(past, past + ids.size(1))  # expect: DEV006
        h = self.tok(ids) + self.pos(positions)[None]
        new_caches = []
        for i, block in enumerate(self.blocks):
            a, c = block(h, None if caches is None else caches[i])
            h = h + a
            new_caches.append(c)
        return self.lm_head(self.norm(h)), new_caches


def resize_vocab(model, new_size):
    old = model.tok.weight.data
    model.tok = nn.Embedding(new_size, old.size(1)).to(old.device)
    model.tok.weight.data[: old.size(0)] = old


def top_p_filter(logits, p=0.9):
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    drop = cum - sorted_logits.softmax(-1) > p
    sorted_logits[drop] = float("-inf")
    return torch.full_like(logits, float("-inf")).scatter(-1, order, sorted_logits)


@torch.no_grad()
def sample(model, prompt_ids, num_samples, max_new, device, temperature=0.8):
    ids = prompt_ids.to(device).repeat(num_samples, 1)
    logits, caches = model(ids)
    out = [ids]
    for _ in range(max_new):
        probs = top_p_filter(logits[:, -1] / temperature).softmax(-1)
        nxt = torch.multinomial(probs, 1)
        out.append(nxt)
        logits, caches = model(nxt, caches)
    return torch.cat(out, dim=1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = TinyLM(len(BASE_VOCAB))
    model.to(device).eval()

    vocab = BASE_VOCAB + SPECIAL
    resize_vocab(model, len(vocab))
    model.lm_head = nn.Linear(model.lm_head.in_features, len(vocab), bias=False)  # expect: DEV015

    stoi = {c: i for i, c in enumerate(vocab)}
    prompt = torch.tensor([[stoi["<bos>"]] + [stoi[c] for c in "the cat "]])
    seqs = sample(model, prompt, num_samples=3, max_new=12, device=device)
    for row in seqs.tolist():
        print("".join(vocab[i] if i < len(BASE_VOCAB) else "" for i in row))


if __name__ == "__main__":
    main()
