"""LSTM encoder over padded source batches, packed by length."""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb_dim=32, hidden_dim=64, num_layers=1, pad_idx=0):
        super().__init__()
        self.hidden_dim, self.num_layers = hidden_dim, num_layers
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_idx)
        self.rnn = nn.LSTM(emb_dim, hidden_dim, num_layers, batch_first=True)

    def init_hidden(self, x):
        shape = (self.num_layers, x.size(0), self.hidden_dim)
        return torch.zeros(shape, device=x.device), torch.zeros(shape, device=x.device)

    def forward(self, src, lengths):
        packed = pack_padded_sequence(self.embedding(src), lengths.cpu(), batch_first=True, enforce_sorted=False)
        outputs, hidden = self.rnn(packed, self.init_hidden(src))
        outputs, _ = pad_packed_sequence(outputs, batch_first=True, total_length=src.size(1))
        return outputs, hidden
