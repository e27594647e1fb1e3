import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class KeywordGRU(nn.Module):
    def __init__(self, n_mels, n_keywords, hidden, feat_mean=None, feat_std=None):
        super().__init__()
        self.register_buffer("feat_mean", feat_mean if feat_mean is not None else torch.zeros(n_mels))
        self.register_buffer("feat_std", feat_std if feat_std is not None else torch.ones(n_mels))
        self.gru = nn.GRU(n_mels, hidden, batch_first=True, bidirectional=True)
        self.attn = nn.Linear(2 * hidden, 1)
        self.out = nn.Linear(2 * hidden, n_keywords)

    def forward(self, feats, lengths):
        x = (feats - self.feat_mean) / self.feat_std
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        h, _ = pad_packed_sequence(self.gru(packed)[0], batch_first=True, total_length=feats.shape[1])
        frame_ids = torch.arange(feats.shape[1], device=feats.device)
        valid = frame_ids[None, :] < lengths.to(feats.device)[:, None]
        scores = self.attn(h).squeeze(-1).masked_fill(~valid, float("-inf"))
        pooled = (torch.softmax(scores, dim=1).unsqueeze(-1) * h).sum(1)
        return self.out(pooled)
