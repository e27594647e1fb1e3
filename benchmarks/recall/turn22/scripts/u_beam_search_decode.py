"""Beam-search decoding for a small GRU encoder-decoder (reversal task)."""
import math

import torch
import torch.nn as nn

PAD, BOS, EOS = 0, 1, 2
VOCAB = 12


def sinusoid_table(max_len, dim):
    pos = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
    table = torch.zeros(max_len, dim)
    table[:, 0::2] = torch.sin(pos * div)
    table[:, 1::2] = torch.cos(pos * div)
    return table


class Seq2Seq(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32, max_len=64):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)
        self.pos_table = sinusoid_table(max_len, dim)  # expect: DEV010

    def encode(self, src):
        x = self.src_emb(src) + self.pos_table[: src.size(1)]
        _, h = self.encoder(x)
        return h

    def step(self, tok, h):
        o, h = self.decoder(self.tgt_emb(tok).unsqueeze(1), h)
        return self.out(o.squeeze(1)).log_softmax(-1), h

    def forward(self, src, tgt_in):
        h = self.encode(src)
        o, _ = self.decoder(self.tgt_emb(tgt_in), h)
        return self.out(o)


@torch.no_grad()
def beam_search(model, src, device, beam=4, max_len=10, alpha=0.7):
    h = model.encode(src.unsqueeze(0).to(device)).repeat(1, beam, 1)
    hyps = torch.full((beam, 1), BOS, dtype=torch.long)  # expect: DEV006
    scores = torch.zeros(beam, device=device)
    scores[1:] = float("-inf")
    done = []
    for t in range(max_len):
        logp, h = model.step(hyps[:, -1].to(device), h)
        cand = (scores.unsqueeze(1) + logp).view(-1)
        top, idx = cand.topk(beam)
        beam_idx, tok = idx // VOCAB, idx % VOCAB
        hyps = torch.cat([hyps[beam_idx], tok.unsqueeze(1)], dim=1)
        h = h[:, beam_idx]
        scores = top.clone()
        for b in range(beam):
            if tok[b].item() == EOS:
                lp = ((5 + t + 1) / 6) ** alpha
                done.append((scores[b].item() / lp, hyps[b, 1:-1].tolist()))
                scores[b] = float("-inf")
        if len(done) >= beam:
            break
    if not done:
        done = [(scores[0].item(), hyps[0, 1:].tolist())]
    return max(done)[1]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = Seq2Seq().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(30):  # a few quick steps so decoding is not pure noise
        src = torch.randint(3, VOCAB, (16, 5), device=device)
        tgt = torch.cat([torch.full((16, 1), BOS, device=device), src.flip(1),
                         torch.full((16, 1), EOS, device=device)], dim=1)
        logits = model(src, tgt[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), tgt[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    for seq in ([3, 4, 5, 6, 7], [9, 8, 3, 3, 10]):
        print(seq, "->", beam_search(model, torch.tensor(seq), device))


if __name__ == "__main__":
    main()
