"""Bag-of-embeddings classifier with a registered class-prior buffer."""
import torch
import torch.nn as nn


class IntentModel(nn.Module):
    def __init__(self, vocab, dim, n_classes):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.out = nn.Linear(dim, n_classes)
        self.register_buffer("log_prior", torch.full((n_classes,), -torch.log(torch.tensor(float(n_classes)))))

    def forward(self, ids, mask):
        h = (self.emb(ids) * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        return self.out(h) + self.log_prior
