"""BiLSTM tagger with a learned transition bias between consecutive tags; the mask of allowed
transitions is a registered buffer, so it moves with the model.

Thread: https://github.com/kmkurn/pytorch-crf/pull/101 (the mask tensor should follow the device
of the tags; the maintainer points at creating it with ones_like).
"""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class BiLSTMTagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab_size, cfg.emb_dim, padding_idx=cfg.pad_id)
        self.lstm = nn.LSTM(cfg.emb_dim, cfg.hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * cfg.hidden, cfg.num_tags)
        self.transitions = nn.Parameter(torch.zeros(cfg.num_tags, cfg.num_tags))
        allowed = torch.ones(cfg.num_tags, cfg.num_tags)
        allowed[0, -1] = 0
        self.register_buffer("allowed", allowed)

    def forward(self, words, lengths):
        packed = pack_padded_sequence(self.emb(words), lengths, batch_first=True)
        h, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=words.size(1))
        emissions = self.out(h)
        prev = torch.cat([torch.zeros_like(emissions[:, :1]), emissions[:, :-1]], dim=1).softmax(-1)
        return emissions + prev @ (self.transitions * self.allowed)
