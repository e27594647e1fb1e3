"""Popularity-based negative sampling (word2vec-style unigram^alpha)."""
import torch
import torch.nn as nn


class NegativeSampler(nn.Module):
    def __init__(self, item_counts, alpha=0.75):
        super().__init__()
        probs = item_counts.clamp(min=1).pow(alpha)
        probs[0] = 0.0  # never sample padding
        self.register_buffer("probs", probs / probs.sum())

    def forward(self, batch_size, k):
        flat = torch.multinomial(self.probs, batch_size * k, replacement=True)
        return flat.view(batch_size, k)
