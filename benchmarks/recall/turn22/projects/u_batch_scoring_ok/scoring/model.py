import torch
import torch.nn as nn


class TicketClassifier(nn.Module):
    def __init__(self, vocab_size, dim, max_len, n_labels, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab_size, dim, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=2 * dim, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.head = nn.Linear(dim, n_labels)
        # log class prior added to the logits; a buffer, so .to(device) moves it
        self.register_buffer("log_prior", torch.zeros(n_labels))

    def forward(self, ids):
        positions = torch.arange(ids.size(1), device=ids.device).unsqueeze(0)
        h = self.tok(ids) + self.pos(positions)
        pad = ids.eq(self.pad_id)
        h = self.encoder(h, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.head(pooled) + self.log_prior
