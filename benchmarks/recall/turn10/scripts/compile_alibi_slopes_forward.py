"""Small causal language model with ALiBi attention biases, compiled with torch.compile: the
per-head slopes are recomputed in the attention forward from the number of heads.

Thread: https://github.com/pytorch/pytorch/issues/159133 (a CPU tensor meeting CUDA parameters in
a compiled module: Dynamo reports an unhandled FakeTensor device propagation instead of the eager
error).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def alibi_slopes(n_heads):
    start = 2 ** (-8 / n_heads)
    return [start ** (i + 1) for i in range(n_heads)]


class ALiBiAttention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.qkv, self.proj, self.h = nn.Linear(d, 3 * d), nn.Linear(d, d), n_heads

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
        slopes = torch.tensor(alibi_slopes(self.h))  # expect: DEV006
        pos = torch.arange(t, device=x.device)
        rel = (pos[None, :] - pos[:, None]).clamp(max=0).float()
        bias = slopes[:, None, None] * rel
        bias = bias.masked_fill(torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.proj(out.transpose(1, 2).reshape(b, t, d))


class LM(nn.Module):
    def __init__(self, vocab=100, d=64, n_heads=4, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(ALiBiAttention(d, n_heads) for _ in range(n_layers))
        self.norm, self.out = nn.LayerNorm(d), nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids) * math.sqrt(self.emb.embedding_dim)
        for blk in self.blocks:
            h = h + blk(h)
        return self.out(self.norm(h))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = torch.compile(LM().to(device))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    data = torch.randint(0, 100, (64, 33))
    for step in range(20):
        batch = data[torch.randint(0, 64, (8,))].to(device)
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, 100), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
