"""Train a tiny character GPT for a few steps, then sample with top-k / top-p."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = list("abcdefghijklmnopqrstuvwxyz .,")
STOI = {c: i for i, c in enumerate(VOCAB)}
TEXT = "the cat sat on the mat. the dog sat on the log, and the bird sat on the wire. " * 8


class TinyGPT(nn.Module):
    def __init__(self, vocab, dim=64, n_layer=2, n_head=4, block=48):
        super().__init__()
        self.block = block
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(block, dim)
        layer = nn.TransformerEncoderLayer(dim, n_head, 4 * dim, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layer)
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx, position_ids):
        h = self.tok(idx) + self.pos(position_ids)
        causal = nn.Transformer.generate_square_subsequent_mask(idx.size(1), device=idx.device)
        h = self.blocks(h, mask=causal, is_causal=True)
        return self.head(self.ln(h))


def top_k_top_p(logits, top_k=0, top_p=1.0):
    if top_k > 0:
        kth = torch.topk(logits, top_k).values[..., -1, None]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p < 1.0:
        sorted_logits, sorted_idx = torch.sort(logits, descending=True)
        cum = sorted_logits.softmax(-1).cumsum(-1)
        remove = cum > top_p
        remove[..., 1:] = remove[..., :-1].clone()
        remove[..., 0] = False
        mask = remove.scatter(-1, sorted_idx, remove)
        logits = logits.masked_fill(mask, float("-inf"))
    return logits


@torch.no_grad()
def generate(model, prompt_ids, max_new, temperature=1.0, top_k=0, top_p=1.0):
    ids = prompt_ids
    for _ in range(max_new):
        ctx = ids[:, -model.block:]
        position_ids = torch.arange(ctx.size(1)).unsqueeze(0).expand_as(ctx)  # expect: DEV006
        logits = model(ctx, position_ids)[:, -1, :] / temperature
        logits = top_k_top_p(logits, top_k, top_p)
        nxt = torch.multinomial(logits.softmax(-1), num_samples=1)
        ids = torch.cat([ids, nxt], dim=1)
    return ids


def decode(row):
    return "".join(VOCAB[i] for i in row)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--prompt", default="the ")
    p.add_argument("--top-k", type=int, default=10)
    p.add_argument("--top-p", type=float, default=0.9)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    data = torch.tensor([STOI[c] for c in TEXT])
    model = TinyGPT(len(VOCAB)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    T = model.block
    for step in range(args.steps):
        starts = torch.randint(0, len(data) - T - 1, (8,))
        x = torch.stack([data[s:s + T] for s in starts]).to(device)
        y = torch.stack([data[s + 1:s + T + 1] for s in starts]).to(device)
        pos = torch.arange(T, device=device).unsqueeze(0).expand_as(x)
        loss = F.cross_entropy(model(x, pos).reshape(-1, len(VOCAB)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("final loss", round(loss.item(), 3))

    model.eval()
    prompt = torch.tensor([[STOI[c] for c in args.prompt]], device=device)
    out = generate(model, prompt, 40, temperature=0.8, top_k=args.top_k, top_p=args.top_p)
    text = decode(out[0].numpy().tolist())  # expect: DEV011
    print(repr(text))


if __name__ == "__main__":
    main()
