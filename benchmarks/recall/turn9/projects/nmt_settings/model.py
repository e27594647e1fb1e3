"""GRU encoder-decoder with greedy decoding; the decoder starts from a start-of-sentence column.

Thread: https://github.com/sooftware/kospeech/issues/10 (Speller decoder: tensors on different
devices inside the model's forward).
"""
import torch
import torch.nn as nn

from settings import HIDDEN, SOS, VOCAB


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HIDDEN)
        self.enc = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.dec = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, src, max_len):
        _, h = self.enc(self.emb(src))
        tok = torch.full((src.size(0), 1), SOS, dtype=torch.long)  # expect: DEV006
        logits = []
        for _ in range(max_len):
            o, h = self.dec(self.emb(tok), h)
            step = self.out(o)
            logits.append(step)
            tok = step.argmax(-1)
        return torch.cat(logits, 1)
