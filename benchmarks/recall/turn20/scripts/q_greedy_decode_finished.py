"""Batched greedy decoding for a GRU seq2seq; stops each row at EOS and pads the rest."""
import torch
import torch.nn as nn

PAD, BOS, EOS = 0, 1, 2
VOCAB = 30


class Seq2Seq(nn.Module):
    def __init__(self, vocab=VOCAB, hid=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, hid, padding_idx=PAD)
        self.enc = nn.GRU(hid, hid, batch_first=True)
        self.dec = nn.GRU(hid, hid, batch_first=True)
        self.out = nn.Linear(hid, vocab)

    def encode(self, src):
        _, h = self.enc(self.emb(src))
        return h

    def step(self, tok, h):
        o, h = self.dec(self.emb(tok[:, None]), h)
        return self.out(o[:, 0]), h


@torch.no_grad()
def greedy_decode(model, src, max_len=20):
    h = model.encode(src)
    batch = src.size(0)
    tok = torch.full((batch,), BOS, dtype=torch.long, device=src.device)
    finished = torch.zeros(batch, dtype=torch.bool)  # expect: DEV006
    out = []
    for _ in range(max_len):
        logits, h = model.step(tok, h)
        tok = logits.argmax(-1)
        tok = tok.masked_fill(finished, PAD)
        out.append(tok)
        finished |= tok == EOS
        if finished.all():
            break
    return torch.stack(out, dim=1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Seq2Seq().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    src = torch.randint(3, VOCAB, (16, 10), device=device)
    tgt = torch.cat([src.flip(1), torch.full((16, 1), EOS, device=device)], dim=1)
    for _ in range(5):
        h = model.encode(src)
        tok = torch.full((16,), BOS, dtype=torch.long, device=device)
        loss = 0.0
        for t in range(tgt.size(1)):
            logits, h = model.step(tok, h)
            loss = loss + nn.functional.cross_entropy(logits, tgt[:, t])
            tok = tgt[:, t]
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(greedy_decode(model, src[:4]).cpu())


if __name__ == "__main__":
    main()
