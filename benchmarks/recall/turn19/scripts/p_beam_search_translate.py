#!/usr/bin/env python
"""Train a tiny attentional GRU translator for a few steps, then decode with beam search.

usage: python p_beam_search_translate.py [--beam 4] [--steps 60]
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS, PAD = 1, 2, 0
VOCAB = 16

device = torch.device("cuda")  # expect: DEV001


class AttnTranslator(nn.Module):
    def __init__(self, vocab=VOCAB, emb=32, hid=64):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.encoder = nn.GRU(emb, hid, batch_first=True)
        self.decoder = nn.GRUCell(emb + hid, hid)
        self.attn = nn.Linear(hid, hid, bias=False)
        self.out = nn.Linear(2 * hid, vocab)

    def encode(self, src):
        memory, h = self.encoder(self.src_emb(src))
        return memory, h.squeeze(0)

    def step(self, token, h, memory, ctx):
        h = self.decoder(torch.cat([self.tgt_emb(token), ctx], dim=-1), h)
        scores = torch.bmm(memory, self.attn(h).unsqueeze(2)).squeeze(2)
        ctx = torch.bmm(F.softmax(scores, dim=-1).unsqueeze(1), memory).squeeze(1)
        return F.log_softmax(self.out(torch.cat([h, ctx], dim=-1)), dim=-1), h, ctx

    def forward(self, src, tgt_in):
        memory, h = self.encode(src)
        ctx = torch.zeros_like(h)
        logps = []
        for t in range(tgt_in.size(1)):
            logp, h, ctx = self.step(tgt_in[:, t], h, memory, ctx)
            logps.append(logp)
        return torch.stack(logps, dim=1)


def random_batch(bs, length=6):
    src = torch.randint(3, VOCAB, (bs, length), device=device)
    tgt = torch.cat([src.flip(1), torch.full((bs, 1), EOS, device=device)], dim=1)
    tgt_in = torch.cat([torch.full((bs, 1), SOS, device=device), tgt[:, :-1]], dim=1)
    return src, tgt_in, tgt


@torch.no_grad()
def beam_search(model, src, beam_size=4, max_len=12):
    """src: (1, S). Returns the best hypothesis as a list of token ids."""
    memory, h = model.encode(src)
    memory = memory.expand(beam_size, -1, -1)
    h = h.expand(beam_size, -1).contiguous()
    ctx = torch.zeros_like(h)
    tokens = torch.full((beam_size, 1), SOS, dtype=torch.long, device=src.device)
    scores = torch.zeros(beam_size)  # expect: DEV006
    scores[1:] = float("-inf")  # all beams start identical; keep only one alive at t=0
    finished = []
    for _ in range(max_len):
        logp, h, ctx = model.step(tokens[:, -1], h, memory, ctx)
        cand = (scores.unsqueeze(1) + logp).view(-1)
        top, idx = cand.topk(beam_size)
        beam_idx, tok_idx = idx // logp.size(1), idx % logp.size(1)
        tokens = torch.cat([tokens[beam_idx], tok_idx.unsqueeze(1)], dim=1)
        h, ctx, scores = h[beam_idx], ctx[beam_idx], top
        done = tok_idx.eq(EOS)
        for b in done.nonzero().flatten().tolist():
            finished.append((scores[b].item() / tokens.size(1), tokens[b].tolist()))
            scores[b] = float("-inf")
        if len(finished) >= beam_size:
            break
    if not finished:
        finished = [(scores[0].item(), tokens[0].tolist())]
    return max(finished)[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--beam", type=int, default=4)
    ap.add_argument("--steps", type=int, default=60)
    args = ap.parse_args()

    torch.manual_seed(0)
    model = AttnTranslator().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(args.steps):
        src, tgt_in, tgt = random_batch(32)
        logp = model(src, tgt_in)
        loss = F.nll_loss(logp.reshape(-1, VOCAB), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("final train loss", round(loss.item(), 3))

    model.eval()
    src, _, _ = random_batch(1)
    print("src ", src[0].tolist())
    print("beam", beam_search(model, src, args.beam))


if __name__ == "__main__":
    main()
