"""Teacher and student text classifiers (masked mean pooling over token embeddings).

Thread: https://github.com/huggingface/setfit/pull/175 (body and head on different devices).
"""
import torch.nn as nn


class PooledClassifier(nn.Module):
    def __init__(self, vocab_size, dim, hidden, num_labels, pad_id=0):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=pad_id)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, num_labels))

    def forward(self, ids, mask):
        m = mask.unsqueeze(-1).to(self.emb.weight.dtype)
        pooled = (self.emb(ids) * m).sum(1) / m.sum(1).clamp(min=1)
        return self.mlp(pooled)


def build_teacher(cfg):
    return PooledClassifier(cfg.vocab_size, 256, 512, cfg.num_labels, cfg.pad_id)


def build_student(cfg):
    return PooledClassifier(cfg.vocab_size, 64, 64, cfg.num_labels, cfg.pad_id)
