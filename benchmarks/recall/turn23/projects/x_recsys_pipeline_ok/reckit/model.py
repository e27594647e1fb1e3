import torch
import torch.nn as nn


class GRU4Rec(nn.Module):
    def __init__(self, n_items, dim, max_len):
        super().__init__()
        self.items = nn.Embedding(n_items, dim, padding_idx=0)
        self.positions = nn.Embedding(max_len, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)

    def forward(self, seq):
        pos = torch.arange(seq.size(1), device=seq.device).expand_as(seq)
        h, _ = self.gru(self.items(seq) + self.positions(pos))
        return h[:, -1]

    def score(self, session_vec, item_ids):
        return (session_vec.unsqueeze(1) * self.items(item_ids)).sum(-1)

    def score_all(self, session_vec):
        return session_vec @ self.items.weight.T
