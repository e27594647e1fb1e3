import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)
        mask = torch.triu(torch.full((t, t), float("-inf"), device=x.device, dtype=scores.dtype), diagonal=1)
        att = F.softmax(scores + mask, dim=-1)
        return self.proj((att @ v).transpose(1, 2).reshape(b, t, d))


class TopicTransformer(nn.Module):
    def __init__(self, vocab, dim, num_classes, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(1, 64, dim))
        self.blocks = nn.ModuleList(CausalSelfAttention(dim) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, ids):
        h = self.emb(ids) + self.pos[:, : ids.size(1)]
        for block in self.blocks:
            h = h + block(h)
        return self.head(self.norm(h)[:, -1])


def build_teacher(cfg):
    return TopicTransformer(cfg.vocab, cfg.teacher_dim, cfg.num_classes, layers=3)


def build_student(cfg):
    return TopicTransformer(cfg.vocab, cfg.student_dim, cfg.num_classes, layers=1)
