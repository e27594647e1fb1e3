import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class Recognizer(nn.Module):
    """Two stride-2 convolutions over time, then a BiGRU over the packed sequence."""

    def __init__(self, n_mels, hidden, n_tokens):
        super().__init__()
        self.subsample = nn.Sequential(
            nn.Conv1d(n_mels, hidden, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv1d(hidden, hidden, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, n_tokens)

    @staticmethod
    def output_lengths(lens):
        for _ in range(2):
            lens = (lens - 1) // 2 + 1
        return lens

    def forward(self, feats, feat_lens):
        x = self.subsample(feats.transpose(1, 2)).transpose(1, 2)
        out_lens = self.output_lengths(feat_lens.cpu())
        packed = pack_padded_sequence(x, out_lens, batch_first=True, enforce_sorted=False)
        h, _ = self.rnn(packed)
        h, _ = pad_packed_sequence(h, batch_first=True, total_length=x.shape[1])
        steps = torch.arange(x.shape[1], device=x.device)
        pad_mask = steps[None, :] >= out_lens.to(x.device)[:, None]
        logits = self.proj(h).masked_fill(pad_mask.unsqueeze(-1), 0.0)
        return logits.log_softmax(-1), out_lens
