"""Char-level mini GPT with a KV cache for fast sampling, plus best-of-n reranking.

The reranker is a tiny bigram scorer that we keep on a second card when we have one,
so the generator gets the whole first GPU.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = ("the quick brown fox jumps over the lazy dog. " * 40)
chars = sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
encode = lambda s: [stoi[c] for c in s]
decode = lambda ids: "".join(itos[i] for i in ids)

gen_device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
score_device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x, cache=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        hd = C // self.n_head
        q = q.view(B, T, self.n_head, hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, hd).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        past = k.size(2) - T
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
        mask = torch.triu(torch.ones(T, past + T, dtype=torch.bool), diagonal=past + 1)  # expect: DEV006
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(y), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CachedSelfAttention(d_model, n_head)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a, new_cache = self.attn(self.ln1(x), cache)
        x = x + a
        x = x + self.mlp(self.ln2(x))
        return x, new_cache


class MiniGPT(nn.Module):
    def __init__(self, vocab, block_size=64, d_model=64, n_head=4, n_layer=2):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(block_size, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx, caches=None):
        B, T = idx.shape
        past = 0 if caches is None else caches[0][0].size(2)
        positions = torch.arange(past, past + T)  # expect: DEV006
        x = self.tok(idx) + self.pos(positions)
        new_caches = []
        for i, blk in enumerate(self.blocks):
            x, c = blk(x, None if caches is None else caches[i])
            new_caches.append(c)
        return self.head(self.ln_f(x)), new_caches


@torch.no_grad()
def generate(model, prompt_ids, max_new_tokens, temperature=0.8, top_k=8):
    model.eval()
    idx = prompt_ids
    logits, caches = model(idx)
    for _ in range(max_new_tokens):
        logits = logits[:, -1, :] / temperature
        v, _ = torch.topk(logits, top_k)
        logits[logits < v[:, [-1]]] = float("-inf")
        nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat([idx, nxt], dim=1)
        if idx.size(1) >= model.block_size:
            break
        logits, caches = model(nxt, caches)
    return idx


class BigramScorer(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.table = nn.Embedding(vocab, vocab)

    def log_prob(self, seq):
        logp = F.log_softmax(self.table(seq[:, :-1]), -1)
        return logp.gather(-1, seq[:, 1:, None]).squeeze(-1).sum(-1)


def main():
    torch.manual_seed(0)
    data = torch.tensor(encode(TEXT), dtype=torch.long)
    model = MiniGPT(len(chars)).to(gen_device)
    scorer = BigramScorer(len(chars)).to(score_device)
    opt = torch.optim.AdamW(list(model.parameters()) + list(scorer.parameters()), lr=3e-3)

    bs, T = 16, 32
    for step in range(60):
        ix = torch.randint(len(data) - T - 1, (bs,))
        xb = torch.stack([data[i:i + T] for i in ix]).to(gen_device)
        yb = torch.stack([data[i + 1:i + T + 1] for i in ix]).to(gen_device)
        logits, _ = model(xb)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), yb.reshape(-1))
        sloss = -scorer.log_prob(xb.to(score_device)).mean() / T
        opt.zero_grad()
        (loss + sloss.to(gen_device)).backward()
        opt.step()
        if step % 20 == 0:
            print(f"step {step} loss {loss.item():.3f}")

    prompt = torch.tensor([encode("the ")], dtype=torch.long, device=gen_device).repeat(4, 1)
    samples = generate(model, prompt, 40)
    scores = scorer.log_prob(samples.to(score_device))
    best = scores.argmax().item()
    for i, s in enumerate(samples.tolist()):
        flag = "*" if i == best else " "
        print(flag, repr(decode(s)))


if __name__ == "__main__":
    main()
