"""Attention GRU translator + beam search with GNMT length penalty.

Train briefly on a synthetic copy-with-substitution task, then decode a few
sentences with beam search (k=4) and compare against greedy.
"""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS = 0, 1, 2
VOCAB = 24


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--beam", type=int, default=4)
    ap.add_argument("--alpha", type=float, default=0.6, help="length penalty exponent")
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--max-len", type=int, default=16)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    return ap.parse_args()


def sample_batch(batch_size, device):
    lens = [random.randint(3, 9) for _ in range(batch_size)]
    S = max(lens) + 1
    src = torch.full((batch_size, S), PAD, dtype=torch.long)
    tgt = torch.full((batch_size, S + 1), PAD, dtype=torch.long)
    for i, n in enumerate(lens):
        toks = [random.randint(3, VOCAB - 1) for _ in range(n)]
        src[i, :n + 1] = torch.tensor(toks + [EOS])
        mapped = [3 + (t - 3 + 5) % (VOCAB - 3) for t in toks]
        tgt[i, :n + 2] = torch.tensor([BOS] + mapped + [EOS])
    return src.to(device), tgt.to(device)


class Translator(nn.Module):
    def __init__(self, vocab, emb=48, hid=96):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.encoder = nn.GRU(emb, hid, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hid, hid)
        self.decoder = nn.GRUCell(emb + 2 * hid, hid)
        self.attn = nn.Linear(hid, 2 * hid, bias=False)
        self.out = nn.Linear(hid + 2 * hid, vocab)

    def encode(self, src):
        enc_out, h = self.encoder(self.src_emb(src))
        h0 = torch.tanh(self.bridge(torch.cat([h[0], h[1]], -1)))
        return enc_out, h0, src.ne(PAD)

    def step(self, prev_tok, h, enc_out, src_mask, ctx):
        h = self.decoder(torch.cat([self.tgt_emb(prev_tok), ctx], -1), h)
        scores = torch.bmm(enc_out, self.attn(h).unsqueeze(2)).squeeze(2)
        scores = scores.masked_fill(~src_mask, float("-inf"))
        ctx = torch.bmm(scores.softmax(-1).unsqueeze(1), enc_out).squeeze(1)
        return self.out(torch.cat([h, ctx], -1)), h, ctx

    def forward(self, src, tgt_in):
        enc_out, h, mask = self.encode(src)
        ctx = enc_out.new_zeros(src.size(0), enc_out.size(-1))
        logits = []
        for t in range(tgt_in.size(1)):  # teacher forcing
            lo, h, ctx = self.step(tgt_in[:, t], h, enc_out, mask, ctx)
            logits.append(lo)
        return torch.stack(logits, 1)


@torch.no_grad()
def beam_search(model, src, beam_size=4, max_len=16, alpha=0.6):
    """src: (1, S) on the model's device. Returns the best hypothesis (list of ids)."""
    enc_out, h, mask = model.encode(src)
    enc_out = enc_out.expand(beam_size, -1, -1)
    mask = mask.expand(beam_size, -1)
    h = h.expand(beam_size, -1).contiguous()
    ctx = enc_out.new_zeros(beam_size, enc_out.size(-1))

    # lp(Y) = ((5 + |Y|) / 6) ** alpha, looked up per step
    length_penalty = ((5.0 + torch.arange(max_len + 1, dtype=torch.float)) / 6.0) ** alpha

    tokens = torch.full((beam_size, 1), BOS, dtype=torch.long, device=src.device)
    beam_scores = torch.zeros(beam_size)  # expect: DEV006
    beam_scores[1:] = -1e9  # only one live hypothesis at t=0
    finished = torch.zeros(beam_size, dtype=torch.bool)  # expect: DEV006
    best_done, best_done_score = None, float("-inf")

    for t in range(1, max_len + 1):
        logits, h, ctx = model.step(tokens[:, -1], h, enc_out, mask, ctx)
        log_probs = F.log_softmax(logits, dim=-1)
        cand = beam_scores.unsqueeze(1) + log_probs  # (k, V)
        flat = cand.view(-1)
        top_scores, top_idx = flat.topk(beam_size)
        beam_idx = top_idx // VOCAB
        tok_idx = top_idx % VOCAB

        tokens = torch.cat([tokens[beam_idx], tok_idx.unsqueeze(1)], dim=1)
        h, ctx = h[beam_idx], ctx[beam_idx]
        beam_scores = top_scores
        finished = finished[beam_idx] | tok_idx.eq(EOS)

        for k in range(beam_size):
            if finished[k]:
                normed = beam_scores[k].item() / length_penalty[t].item()
                if normed > best_done_score:
                    best_done, best_done_score = tokens[k].tolist(), normed
        # drop finished beams from further expansion
        beam_scores = beam_scores.masked_fill(finished, -1e9)
        if finished.all() or (best_done is not None and
                              beam_scores.max().item() / length_penalty[max_len].item() < best_done_score):
            break

    if best_done is None:
        best_done = tokens[beam_scores.argmax()].tolist()
    return best_done


@torch.no_grad()
def greedy(model, src, max_len=16):
    enc_out, h, mask = model.encode(src)
    ctx = enc_out.new_zeros(src.size(0), enc_out.size(-1))
    tok = torch.full((src.size(0),), BOS, dtype=torch.long, device=src.device)
    out = [BOS]
    for _ in range(max_len):
        logits, h, ctx = model.step(tok, h, enc_out, mask, ctx)
        tok = logits.argmax(-1)
        out.append(tok.item())
        if tok.item() == EOS:
            break
    return out


def main():
    args = parse()
    random.seed(0)
    torch.manual_seed(0)
    device = torch.device(args.device)
    model = Translator(VOCAB).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for step in range(args.steps):
        src, tgt = sample_batch(32, device)
        logits = model(src, tgt[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt[:, 1:].reshape(-1), ignore_index=PAD)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.3f}")

    model.eval()
    for _ in range(3):
        src, tgt = sample_batch(1, device)
        print("ref   ", tgt[0].tolist())
        print("greedy", greedy(model, src, args.max_len))
        print("beam  ", beam_search(model, src, args.beam, args.max_len, args.alpha))


if __name__ == "__main__":
    main()
