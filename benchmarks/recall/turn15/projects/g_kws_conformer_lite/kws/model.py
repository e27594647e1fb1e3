import math

import torch
import torch.nn as nn

from .features import LogMel, SpecAugment


class SinusoidalPositions(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        pos = torch.arange(max_len).float()[:, None]
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe, persistent=False)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class KeywordSpotter(nn.Module):
    def __init__(self, cfg, n_classes):
        super().__init__()
        self.frontend = LogMel(cfg)
        self.augment = SpecAugment()
        self.proj = nn.Conv1d(cfg.n_mels, cfg.d_model, 3, stride=2, padding=1)
        self.pos = SinusoidalPositions(cfg.d_model, cfg.max_frames)
        layer = nn.TransformerEncoderLayer(cfg.d_model, cfg.n_heads, 2 * cfg.d_model, batch_first=True, dropout=0.1)
        self.encoder = nn.TransformerEncoder(layer, cfg.n_layers)
        self.head = nn.Linear(cfg.d_model, n_classes)

    def forward(self, wav, wav_lens=None):
        feats = self.augment(self.frontend(wav))
        h = self.proj(feats.transpose(1, 2)).transpose(1, 2)
        pad_mask = None
        if wav_lens is not None:
            frames = ((wav_lens // self.frontend.hop) + 1 + 1) // 2
            pad_mask = torch.arange(h.size(1), device=h.device)[None, :] >= frames.to(h.device)[:, None]
        h = self.encoder(self.pos(h), src_key_padding_mask=pad_mask)
        if pad_mask is not None:
            h = h.masked_fill(pad_mask[..., None], 0.0)
            return self.head(h.sum(1) / (~pad_mask).sum(1, keepdim=True).clamp(min=1))
        return self.head(h.mean(1))
