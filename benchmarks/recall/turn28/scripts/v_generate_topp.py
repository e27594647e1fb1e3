"""Tiny character-level GPT: a few training steps on a toy corpus, then
top-k / nucleus sampling from a prompt."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = ("the quick brown fox jumps over the lazy dog. " * 40) + "pack my box with five dozen liquor jugs. " * 20


class CausalSelfAttention(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # expect: DEV006
        att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, n_head)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab, block_size=32, d=64, n_head=4, n_layer=2):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(block_size, d)
        self.blocks = nn.Sequential(*[Block(d, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        T = idx.size(1)
        pos = torch.arange(T, device=idx.device)
        x = self.tok(idx) + self.pos(pos)[None]
        return self.lm_head(self.ln_f(self.blocks(x)))


@torch.no_grad()
def sample(model, idx, n_new, temperature=1.0, top_k=None, top_p=0.9):
    for _ in range(n_new):
        logits = model(idx[:, -model.block_size:])[:, -1, :] / temperature
        if top_k is not None:
            kth = torch.topk(logits, top_k).values[:, [-1]]
            logits = logits.masked_fill(logits < kth, float("-inf"))
        probs = logits.softmax(dim=-1)
        sorted_p, sorted_i = probs.sort(dim=-1, descending=True)
        drop = sorted_p.cumsum(dim=-1) - sorted_p > top_p
        sorted_p = sorted_p.masked_fill(drop, 0.0)
        choice = torch.multinomial(sorted_p / sorted_p.sum(-1, keepdim=True), num_samples=1)
        idx = torch.cat([idx, sorted_i.gather(-1, choice)], dim=1)
    return idx


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--prompt", default="the quick")
    parser.add_argument("--top-k", type=int, default=20)
    parser.add_argument("--top-p", type=float, default=0.9)
    args = parser.parse_args()
    device = torch.device(args.device)
    torch.manual_seed(0)

    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)
    model = TinyGPT(len(chars)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(args.steps):
        starts = torch.randint(0, len(data) - model.block_size - 1, (16,))
        x = torch.stack([data[s:s + model.block_size] for s in starts]).to(device)
        y = torch.stack([data[s + 1:s + 1 + model.block_size] for s in starts]).to(device)
        loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    print(f"final loss {loss.item():.3f}")

    model.eval()
    prompt = torch.tensor([[stoi[c] for c in args.prompt]], dtype=torch.long, device=device)
    out = sample(model, prompt, 40, temperature=0.8, top_k=args.top_k, top_p=args.top_p)
    ids = out[0].numpy()  # expect: DEV011
    print("".join(chars[i] for i in ids))


if __name__ == "__main__":
    main()
