"""A bidirectional GRU acoustic model whose padded frames are zeroed before the output layer."""
import torch
import torch.nn as nn


class AcousticModel(nn.Module):
    def __init__(self, n_mels, hidden, n_symbols):
        super().__init__()
        self.rnn = nn.GRU(n_mels, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_symbols)

    def forward(self, feats, feat_lens):
        h, _ = self.rnn(feats)
        frames = torch.arange(feats.size(1))  # expect: DEV006
        valid = frames[None, :] < feat_lens[:, None]
        h = h * valid.unsqueeze(-1)
        return self.out(h).log_softmax(-1)
