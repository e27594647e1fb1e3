"""A small transformer encoder for topic classification."""
import torch
import torch.nn as nn


class TopicEncoder(nn.Module):
    def __init__(self, vocab_size, n_classes, max_len, d_model):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model, padding_idx=0)
        self.pos = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=2 * d_model, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.cls = nn.Linear(d_model, n_classes)

    def forward(self, input_ids):
        positions = torch.arange(input_ids.size(1))  # expect: DEV006
        h = self.tok(input_ids) + self.pos(positions)[None]
        pad = input_ids.eq(0)
        h = self.encoder(h, src_key_padding_mask=pad)
        h = h.masked_fill(pad[..., None], 0.0).sum(1) / (~pad).sum(1, keepdim=True).clamp_min(1)
        return self.cls(h)
