"""Correct look-alike: the compiled ALiBi language model keeps its slopes as a non-persistent
buffer (moved with the model), its embedding and output layers are replaced before the model is
moved, and the positions and the causal mask built in forward use device=x.device.

Thread: https://github.com/pytorch/pytorch/issues/91777 (torch.compile burns in device numbers:
keep every tensor a compiled module uses on the module's device).
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
        self.register_buffer("slopes", torch.tensor(alibi_slopes(n_heads)), persistent=False)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
        pos = torch.arange(t, device=x.device)
        bias = self.slopes[:, None, None] * (pos[None, :] - pos[:, None]).clamp(max=0).float()
        bias = bias.masked_fill(torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.proj(out.transpose(1, 2).reshape(b, t, d))


class LM(nn.Module):
    def __init__(self, vocab=100, d=64, n_heads=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.attn = ALiBiAttention(d, n_heads)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.out(self.attn(self.emb(ids) * math.sqrt(self.emb.embedding_dim)))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = LM()
    model.emb = nn.Embedding(120, 64)
    model.out = nn.Linear(64, 120)
    model = torch.compile(model.to(device))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    data = torch.randint(0, 120, (64, 33))
    for step in range(20):
        batch = data[torch.randint(0, 64, (8,))].to(device)
        loss = F.cross_entropy(model(batch[:, :-1]).reshape(-1, 120), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
