import torch
import torch.nn as nn
import torch.nn.functional as F


class Recogniser(nn.Module):
    def __init__(self, n_mels, hidden, n_tokens, feat_mean=None, feat_std=None):
        super().__init__()
        self.register_buffer("feat_mean", feat_mean if feat_mean is not None else torch.zeros(n_mels))
        self.register_buffer("feat_std", feat_std if feat_std is not None else torch.ones(n_mels))
        self.conv = nn.Conv1d(n_mels, hidden, 3, stride=2, padding=1)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, n_tokens)

    @staticmethod
    def output_lengths(feat_lens):
        return (feat_lens + 1) // 2

    def forward(self, feats):
        x = (feats - self.feat_mean) / self.feat_std
        x = F.gelu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        x, _ = self.rnn(x)
        return self.head(x).log_softmax(-1)
