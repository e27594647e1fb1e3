"""Sampling loop done right: a CPU temperature schedule indexed by a Python int (0-dim, legal
next to device logits), masks and counts made on the logits' device, positions from the input."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=30, d=24, max_len=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        h = self.emb(idx) + self.pos(pos)[None]
        T = idx.size(1)
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=idx.device))
        att = (h @ h.transpose(1, 2)).masked_fill(~causal, float("-inf")).softmax(-1)
        return self.out(att @ h)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyLM().to(device).eval()
    temps = torch.linspace(1.2, 0.6, 10)
    seq = torch.zeros(3, 1, dtype=torch.long, device=device)
    counts = torch.zeros(3, 30, device=device)
    banned = torch.zeros(1, 30, device=device)
    banned[0, 0] = float("-inf")
    with torch.no_grad():
        for step in range(10):
            logits = model(seq)[:, -1] / temps[step] - 0.5 * counts + banned
            nxt = torch.multinomial(F.softmax(logits, -1), 1)
            counts.scatter_add_(1, nxt, torch.ones_like(nxt, dtype=counts.dtype))
            seq = torch.cat([seq, nxt], 1)
    print(seq.cpu().tolist())


if __name__ == "__main__":
    main()
