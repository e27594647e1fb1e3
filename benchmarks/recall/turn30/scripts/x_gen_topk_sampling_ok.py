"""Tiny character-level transformer LM: train a few steps, then batched top-k sampling."""
import argparse

import torch
import torch.nn.functional as F
from torch import nn

TEXT = ("the quick brown fox jumps over the lazy dog. " * 40 +
        "a stitch in time saves nine. " * 40)
CHARS = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(CHARS)}
ITOS = {i: c for c, i in STOI.items()}


def encode(s):
    return [STOI[c] for c in s]


def decode(ids):
    return "".join(ITOS[i] for i in ids)


class TinyLM(nn.Module):
    def __init__(self, vocab, d_model=48, n_head=4, n_layer=2, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_head, 4 * d_model, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layer)
        self.ln = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, idx, attention_mask=None, position_ids=None):
        B, T = idx.shape
        if position_ids is None:
            position_ids = torch.arange(T, device=idx.device).unsqueeze(0).expand(B, T)
        h = self.tok(idx) + self.pos(position_ids)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=idx.device), diagonal=1)
        pad = None if attention_mask is None else attention_mask == 0
        h = self.blocks(h, mask=causal, src_key_padding_mask=pad)
        return self.lm_head(self.ln(h))


def get_batch(data, block, batch_size, device):
    ix = torch.randint(len(data) - block - 1, (batch_size,))
    x = torch.stack([data[i:i + block] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block] for i in ix])
    return x.to(device), y.to(device)


@torch.no_grad()
def sample(model, prompts, max_new_tokens, device, temperature=0.8, top_k=5):
    model.eval()
    idx = torch.tensor([encode(p) for p in prompts], device=device)
    attn = torch.ones_like(idx)
    for _ in range(max_new_tokens):
        position_ids = (attn.cumsum(-1) - 1).clamp(min=0)
        logits = model(idx, attention_mask=attn, position_ids=position_ids)[:, -1, :] / temperature
        kth = torch.topk(logits, top_k).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
        nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat([idx, nxt], dim=1)
        attn = torch.cat([attn, attn.new_ones(len(prompts), 1)], dim=1)
    return [decode(row.tolist()) for row in idx]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--block", type=int, default=32)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    data = torch.tensor(encode(TEXT), dtype=torch.long)
    model = TinyLM(len(CHARS)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(args.steps):
        model.train()
        xb, yb = get_batch(data, args.block, 16, device)
        logits = model(xb)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), yb.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"step {step} loss {loss.item():.3f}")

    for line in sample(model, ["the ", "a st"], 40, device):
        print(repr(line))


if __name__ == "__main__":
    main()
