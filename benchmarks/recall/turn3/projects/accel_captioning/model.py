"""Dual encoder for image-caption retrieval."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, vocab=10000, dim=256):
        super().__init__()
        self.img_proj = nn.Sequential(nn.Linear(2048, 512), nn.GELU(), nn.Linear(512, dim))
        self.txt_emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.txt_proj = nn.Linear(dim, dim)
        self.logit_scale = nn.Parameter(torch.tensor(2.659))

    def forward(self, feats, captions):
        zi = F.normalize(self.img_proj(feats), dim=-1)
        zt = F.normalize(self.txt_proj(self.txt_emb(captions)), dim=-1)
        return zi, zt, self.logit_scale.exp()
