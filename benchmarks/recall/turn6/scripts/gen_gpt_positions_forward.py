"""A minimal GPT block stack trained on a copy task; positions are looked up in forward and
generation crops the context to the block size."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MiniGPT(nn.Module):
    def __init__(self, vocab=16, dim=32, block=24):
        super().__init__()
        self.block = block
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(block, dim)
        self.attn = nn.MultiheadAttention(dim, 2, batch_first=True)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx):
        T = idx.size(1)
        positions = torch.arange(T)  # expect: DEV006
        x = self.tok(idx) + self.pos(positions)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=idx.device), diagonal=1)
        a, _ = self.attn(x, x, x, attn_mask=causal)
        x = x + a
        return self.head(x + self.ff(x))

    @torch.no_grad()
    def generate(self, idx, n):
        for _ in range(n):
            logits = self(idx[:, -self.block:])[:, -1]
            idx = torch.cat([idx, logits.argmax(-1, keepdim=True)], dim=1)
        return idx


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = MiniGPT().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(80):
        half = torch.randint(1, 16, (32, 8))
        seq = torch.cat([half, half], dim=1).to(device)
        loss = F.cross_entropy(model(seq[:, :-1]).flatten(0, 1), seq[:, 1:].flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(model.generate(torch.randint(1, 16, (2, 8), device=device), 8))


if __name__ == "__main__":
    main()
