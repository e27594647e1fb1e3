"""A tiny bag-of-embeddings encoder with a classification head, called like an HF model."""
import torch.nn as nn


class TinyEncoderClassifier(nn.Module):
    def __init__(self, vocab_size, num_labels=2, dim=32, pad_id=0):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, dim, padding_idx=pad_id)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.LayerNorm(dim))
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        hidden = self.encoder(self.embeddings(input_ids))
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.classifier(pooled)
