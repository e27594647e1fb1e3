"""A small GPT with learned token embeddings and sinusoidal positions computed on the fly."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoidal(positions, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32, device=positions.device) / half)
    angles = positions[:, None].float() * freqs[None, :]
    return torch.cat([angles.sin(), angles.cos()], dim=-1)


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab_size, cfg.dim)
        layer = nn.TransformerEncoderLayer(cfg.dim, cfg.n_heads, 4 * cfg.dim, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, cfg.n_layers)
        self.ln = nn.LayerNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.vocab_size, bias=False)

    def forward(self, idx, targets=None):
        t = idx.size(1)
        pos = torch.arange(t)  # expect: DEV006
        x = self.tok(idx) + sinusoidal(pos, self.tok.embedding_dim)
        causal = nn.Transformer.generate_square_subsequent_mask(t, device=idx.device)
        logits = self.head(self.ln(self.blocks(x, mask=causal, is_causal=True)))
        loss = None if targets is None else F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss
