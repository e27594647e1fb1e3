import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class Seq2SeqForecaster(nn.Module):
    """GRU encoder over the (packed) history, GRU decoder rolled out for `horizon` steps."""

    def __init__(self, n_series, hidden=32, horizon=12, id_dim=8):
        super().__init__()
        self.horizon = horizon
        self.series_emb = nn.Embedding(n_series, id_dim)
        self.encoder = nn.GRU(1, hidden, batch_first=True)
        self.decoder = nn.GRUCell(1 + id_dim, hidden)
        self.heads = nn.ModuleDict({"point": nn.Linear(hidden, 1), "log_scale": nn.Linear(hidden, 1)})

    def forward(self, history, lengths, series_id, target=None, teacher_forcing=0.0):
        packed = pack_padded_sequence(history, lengths, batch_first=True, enforce_sorted=False)
        _, h = self.encoder(packed)
        h = h[0]
        emb = self.series_emb(series_id)
        # last observed value of every history, gathered with the (cpu) lengths
        prev = history[torch.arange(history.shape[0]), lengths - 1]
        points, scales = [], []
        for step in range(self.horizon):
            h = self.decoder(torch.cat([prev, emb], dim=-1), h)
            point = self.heads["point"](h)
            points.append(point)
            scales.append(self.heads["log_scale"](h).exp())
            if target is not None and torch.rand(()) < teacher_forcing:
                prev = target[:, step:step + 1]
            else:
                prev = point
        return torch.cat(points, dim=1), torch.cat(scales, dim=1)


def gaussian_nll(point, scale, target):
    return (torch.log(scale) + 0.5 * ((target - point) / scale) ** 2).mean()
