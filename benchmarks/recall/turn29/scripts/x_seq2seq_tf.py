"""GRU encoder-decoder on a toy reversal task: packed source sequences, teacher forcing with
a decaying ratio, greedy decoding at the end."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

PAD, SOS, EOS = 0, 1, 2
VOCAB = 20


def make_pairs(n=200, max_len=8):
    pairs = []
    for _ in range(n):
        L = random.randint(3, max_len)
        seq = [random.randint(3, VOCAB - 1) for _ in range(L)]
        pairs.append((seq, seq[::-1] + [EOS]))
    return pairs


def collate(pairs):
    pairs = sorted(pairs, key=lambda p: len(p[0]), reverse=True)
    src_len = torch.tensor([len(s) for s, _ in pairs])
    S, T = int(src_len.max()), max(len(t) for _, t in pairs)
    src = torch.full((len(pairs), S), PAD, dtype=torch.long)
    tgt = torch.full((len(pairs), T), PAD, dtype=torch.long)
    for i, (s, t) in enumerate(pairs):
        src[i, :len(s)] = torch.tensor(s)
        tgt[i, :len(t)] = torch.tensor(t)
    labels = tgt.masked_fill(tgt == PAD, -100)
    return {"src": src, "src_len": src_len, "tgt": tgt, "labels": labels}


class Seq2Seq(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32, padding_idx=PAD)
        self.encoder = nn.GRU(32, hidden, batch_first=True)
        self.decoder = nn.GRUCell(32, hidden)
        self.out = nn.Linear(hidden, VOCAB)

    def encode(self, src, src_len):
        packed = pack_padded_sequence(self.emb(src), src_len, batch_first=True)
        _, h = self.encoder(packed)
        return h[0]

    def forward(self, src, src_len, tgt, tf_ratio=0.5):
        h = self.encode(src, src_len)
        dec_in = torch.full((src.size(0),), SOS, dtype=torch.long)  # expect: DEV006
        logits = []
        for t in range(tgt.size(1)):
            h = self.decoder(self.emb(dec_in), h)
            step = self.out(h)
            logits.append(step)
            use_teacher = random.random() < tf_ratio
            dec_in = tgt[:, t] if use_teacher else step.argmax(-1)
        return torch.stack(logits, dim=1)

    @torch.no_grad()
    def greedy(self, src, src_len, max_len=10):
        h = self.encode(src, src_len)
        tok = torch.full((src.size(0),), SOS, dtype=torch.long, device=src.device)
        out = []
        for _ in range(max_len):
            h = self.decoder(self.emb(tok), h)
            tok = self.out(h).argmax(-1)
            out.append(tok)
        return torch.stack(out, dim=1)


def main():
    random.seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    pairs = make_pairs()
    model = Seq2Seq().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    epochs = 3
    for epoch in range(epochs):
        random.shuffle(pairs)
        tf_ratio = 1.0 - epoch / epochs
        for i in range(0, len(pairs), 32):
            batch = collate(pairs[i:i + 32])
            src, tgt = batch["src"].to(device), batch["tgt"].to(device)
            logits = model(src, batch["src_len"], tgt, tf_ratio)  # lengths stay on the CPU
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), batch["labels"].reshape(-1))  # expect: DEV004
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        print(f"epoch {epoch} (tf={tf_ratio:.2f}) loss {loss.item():.3f}")

    batch = collate(pairs[:4])
    pred = model.greedy(batch["src"].to(device), batch["src_len"])
    print(pred.tolist()[0], batch["tgt"].tolist()[0])


if __name__ == "__main__":
    main()
