"""Batched beam search for a packed-GRU seq2seq (date normalisation toy task:
"3 jan 2021" style token sequences -> "2021 01 03").

Beam state is kept flat as (batch * beam, ...); finished hypotheses are scored with the
GNMT length penalty.
"""
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
SPECIALS = ["<pad>", "<bos>", "<eos>"]
TOKENS = SPECIALS + MONTHS + [str(d) for d in range(32)] + [f"{m:02d}" for m in range(1, 13)] \
    + [str(y) for y in range(1990, 2031)]
TOKENS = list(dict.fromkeys(TOKENS))
STOI = {t: i for i, t in enumerate(TOKENS)}
PAD, BOS, EOS = 0, 1, 2


@dataclass
class Config:
    emb: int = 48
    hidden: int = 128
    beam: int = 4
    alpha: float = 0.7
    max_len: int = 6
    steps: int = 300
    batch_size: int = 64
    lr: float = 3e-3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


def random_example(rng):
    y, m, d = rng.randint(1990, 2030), rng.randint(1, 12), rng.randint(1, 28)
    src = [str(d), MONTHS[m - 1], str(y)] if rng.random() < 0.5 else [MONTHS[m - 1], str(d), str(y)]
    tgt = [str(y), f"{m:02d}", f"{d:02d}" if f"{d:02d}" in STOI else str(d)]
    return [STOI[t] for t in src], [STOI[t] for t in tgt]


def make_batch(rng, n, device):
    pairs = [random_example(rng) for _ in range(n)]
    lengths = torch.tensor([len(s) for s, _ in pairs])
    src = torch.full((n, int(lengths.max())), PAD, dtype=torch.long)
    tgt = torch.full((n, 5), PAD, dtype=torch.long)
    for i, (s, t) in enumerate(pairs):
        src[i, :len(s)] = torch.tensor(s)
        tgt[i, :len(t) + 2] = torch.tensor([BOS] + t + [EOS])
    return src.to(device), lengths, tgt.to(device)  # lengths stay on the CPU for packing


class Seq2Seq(nn.Module):
    def __init__(self, cfg, vocab=len(TOKENS)):
        super().__init__()
        self.emb = nn.Embedding(vocab, cfg.emb, padding_idx=PAD)
        self.enc = nn.GRU(cfg.emb, cfg.hidden, batch_first=True)
        self.dec = nn.GRU(cfg.emb, cfg.hidden, batch_first=True)
        self.out = nn.Linear(cfg.hidden, vocab)

    def encode(self, src, lengths):
        packed = pack_padded_sequence(self.emb(src), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.enc(packed)
        return h  # (1, B, H)

    def forward(self, src, lengths, tgt_in):
        h = self.encode(src, lengths)
        out, _ = self.dec(self.emb(tgt_in), h)
        return self.out(out)

    def step(self, tok, h):
        out, h = self.dec(self.emb(tok).unsqueeze(1), h)
        return F.log_softmax(self.out(out.squeeze(1)), -1), h


@torch.no_grad()
def beam_search(model, src, lengths, beam=4, max_len=6, alpha=0.7):
    B = src.size(0)
    device = src.device
    h = model.encode(src, lengths).repeat_interleave(beam, dim=1)  # (1, B*beam, H)
    V = model.out.out_features

    penalty = ((5.0 + torch.arange(max_len + 2, dtype=torch.float)) / 6.0) ** alpha
    tokens = torch.full((B * beam, 1), BOS, dtype=torch.long, device=device)
    scores = torch.zeros(B, beam, device=device)
    scores[:, 1:] = float("-inf")
    scores = scores.view(-1)
    alive = torch.ones(B * beam, dtype=torch.bool, device=device)
    best = [(float("-inf"), [BOS]) for _ in range(B)]

    for t in range(1, max_len + 1):
        logp, h = model.step(tokens[:, -1], h)
        logp = logp.masked_fill(~alive.unsqueeze(1), float("-inf"))
        cand = (scores.unsqueeze(1) + logp).view(B, beam * V)
        top, idx = cand.topk(beam, dim=1)
        src_beam = idx // V + (torch.arange(B) * beam).unsqueeze(1).to(device)
        next_tok = (idx % V).view(-1)
        src_beam = src_beam.view(-1)
        tokens = torch.cat([tokens[src_beam], next_tok.unsqueeze(1)], 1)
        h = h[:, src_beam]
        scores = top.view(-1)
        ended = next_tok.eq(EOS) & torch.isfinite(scores)
        for flat in ended.nonzero().flatten().tolist():
            b = flat // beam
            normed = scores[flat].item() / penalty[t].item()
            if normed > best[b][0]:
                best[b] = (normed, tokens[flat].tolist())
        alive = ~ended & torch.isfinite(scores)
        scores = scores.masked_fill(~alive, float("-inf"))
        if not alive.any():
            break
    return [[TOKENS[i] for i in hyp[1:] if i not in (EOS, PAD)] for _, hyp in best]


def main():
    cfg = Config()
    rng = random.Random(0)
    torch.manual_seed(0)
    device = torch.device(cfg.device)
    model = Seq2Seq(cfg).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for step in range(cfg.steps):
        src, lengths, tgt = make_batch(rng, cfg.batch_size, device)
        logits = model(src, lengths, tgt[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1), ignore_index=PAD)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f"step {step}: loss {loss.item():.3f}")

    model.eval()
    src, lengths, tgt = make_batch(random.Random(7), 4, device)
    hyps = beam_search(model, src, lengths, cfg.beam, cfg.max_len, cfg.alpha)
    for i, hyp in enumerate(hyps):
        source = [TOKENS[t] for t in src[i, :lengths[i]].tolist()]
        print(" ".join(source), "->", " ".join(hyp))


if __name__ == "__main__":
    main()
