"""Transformer encoder for intent classification (model half of the project).

Part of a project written from "Put torch encodings on same device as input
tensor" / "fix: issue with PositionalEncoder arange not properly being created on
device of Tensor": the position ids are made in forward with a bare
torch.arange, which only matters once train.py moves the module to the GPU.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class EncoderConfig:
    vocab_size: int = 300
    n_intents: int = 6
    dim: int = 64
    heads: int = 4
    layers: int = 2
    max_len: int = 64
    pad_id: int = 0


class IntentEncoder(nn.Module):
    def __init__(self, vocab_size, n_intents, dim=64, heads=4, layers=2, max_len=64, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab_size, dim, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, dim_feedforward=2 * dim, dropout=0.1,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.norm = nn.LayerNorm(dim)
        self.classifier = nn.Linear(dim, n_intents)

    @classmethod
    def from_config(cls, cfg: EncoderConfig):
        return cls(cfg.vocab_size, cfg.n_intents, cfg.dim, cfg.heads, cfg.layers, cfg.max_len, cfg.pad_id)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.size(1)).unsqueeze(0)  # expect: DEV006
        x = self.tok(input_ids) + self.pos(positions)
        h = self.encoder(x, src_key_padding_mask=attention_mask == 0)
        mask = attention_mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.classifier(self.norm(pooled))

    @torch.no_grad()
    def predict(self, input_ids, attention_mask):
        return self(input_ids, attention_mask).argmax(dim=-1)
