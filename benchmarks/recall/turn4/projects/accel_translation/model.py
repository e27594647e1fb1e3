import torch
import torch.nn as nn


class GRUSeq2Seq(nn.Module):
    def __init__(self, vocab_size, hidden, bos_id=1):
        super().__init__()
        self.bos_id = bos_id
        self.emb = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.decoder = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, src, tgt_in):
        _, h = self.encoder(self.emb(src))
        y, _ = self.decoder(self.emb(tgt_in), h)
        return self.out(y)

    @torch.no_grad()
    def greedy(self, src, max_len):
        _, h = self.encoder(self.emb(src))
        tok = torch.full((src.size(0), 1), self.bos_id, dtype=torch.long, device=src.device)
        outs = []
        for _ in range(max_len):
            y, h = self.decoder(self.emb(tok), h)
            tok = self.out(y[:, -1]).argmax(-1, keepdim=True)
            outs.append(tok)
        return torch.cat(outs, dim=1)
