"""GRU encoder of the toy reversal 'translation' model."""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb_dim=32, hidden_dim=64, num_layers=1, pad_idx=0):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.num_layers = num_layers
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_idx)
        self.rnn = nn.GRU(emb_dim, hidden_dim, num_layers, batch_first=True)

    def init_hidden(self, batch_size):
        return torch.zeros(self.num_layers, batch_size, self.hidden_dim)  # expect: DEV006

    def forward(self, src, hidden=None):
        if hidden is None:
            hidden = self.init_hidden(src.size(0))
        outputs, hidden = self.rnn(self.embedding(src), hidden)
        return outputs, hidden
