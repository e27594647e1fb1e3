"""Tiny character-level GPT: train a few steps on a string, then sample from a prompt."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog. " * 20


class Block(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, n_head, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class CharGPT(nn.Module):
    def __init__(self, vocab, d=48, n_head=4, n_layer=2, block_size=32):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(block_size, d)
        self.blocks = nn.ModuleList([Block(d, n_head) for _ in range(n_layer)])
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        T = idx.size(1)
        pos = torch.arange(T)  # expect: DEV006
        mask = torch.triu(torch.full((T, T), float("-inf"), device=idx.device), diagonal=1)
        x = self.tok(idx) + self.pos(pos)[None]
        for blk in self.blocks:
            x = blk(x, mask)
        return self.head(x)


@torch.no_grad()
def sample(model, stoi, itos, prompt, steps, device, temperature=0.8, top_k=5):
    model.eval()
    idx = torch.tensor([[stoi[c] for c in prompt]], device=device)
    for _ in range(steps):
        logits = model(idx[:, -model.block_size:])[:, -1] / temperature
        v, _ = torch.topk(logits, top_k)
        logits[logits < v[:, [-1]]] = -float("inf")
        nxt = torch.multinomial(F.softmax(logits, dim=-1), 1)
        idx = torch.cat([idx, nxt], dim=1)
    return "".join(itos[i] for i in idx[0].tolist())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    itos = {i: c for c, i in stoi.items()}
    data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)

    model = CharGPT(len(chars)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(args.steps):
        ix = torch.randint(0, len(data) - model.block_size - 1, (8,))
        xb = torch.stack([data[i:i + model.block_size] for i in ix]).to(device)
        yb = torch.stack([data[i + 1:i + 1 + model.block_size] for i in ix]).to(device)
        loss = F.cross_entropy(model(xb).reshape(-1, len(chars)), yb.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(sample(model, stoi, itos, "the ", 40, device))


if __name__ == "__main__":
    main()
