import torch
import torch.nn as nn

from .config import GenConfig


class TinyDecoder(nn.Module):
    def __init__(self, cfg: GenConfig):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.pos = nn.Embedding(cfg.block_size, cfg.d_model)
        layer = nn.TransformerEncoderLayer(cfg.d_model, cfg.n_heads, 4 * cfg.d_model, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, cfg.n_layers, enable_nested_tensor=False)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size)

    def forward(self, idx):
        T = idx.size(1)
        pos = torch.arange(T, device=idx.device)
        mask = nn.Transformer.generate_square_subsequent_mask(T, device=idx.device)
        h = self.blocks(self.tok(idx) + self.pos(pos), mask=mask, is_causal=True)
        return self.lm_head(h)
