"""Step-wise GRU decoder; the training loop feeds it one token at a time."""
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, vocab_size, emb_dim=32, hidden_dim=64, num_layers=1, sos_idx=1):
        super().__init__()
        self.sos_idx = sos_idx
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.GRU(emb_dim, hidden_dim, num_layers, batch_first=True)
        self.out = nn.Linear(hidden_dim, vocab_size)

    def start_tokens(self, batch_size):
        """A (batch, 1) column of <sos> ids to start decoding from."""
        return torch.full((batch_size, 1), self.sos_idx, dtype=torch.long)  # expect: DEV006

    def forward(self, token, hidden):
        output, hidden = self.rnn(self.embedding(token), hidden)
        return self.out(output.squeeze(1)), hidden
