# Bidirectional GRU encoder + Bahdanau attention decoder, trained with teacher
# forcing on a toy sort-the-digits task; greedy decoding for evaluation.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader

PAD, SOS, EOS = 0, 1, 2
VOCAB = 13  # digits 0-9 are tokens 3..12

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
random.seed(1)
torch.manual_seed(1)


def make_pairs(n):
    out = []
    for _ in range(n):
        digits = [random.randint(0, 9) for _ in range(random.randint(2, 8))]
        src = torch.tensor([d + 3 for d in digits])
        trg = torch.tensor([SOS] + [d + 3 for d in sorted(digits)] + [EOS])
        out.append((src, trg))
    return out


def collate(batch):
    batch.sort(key=lambda p: len(p[0]), reverse=True)
    srcs, trgs = zip(*batch)
    lengths = torch.tensor([len(s) for s in srcs])
    return pad_sequence(srcs, batch_first=True), lengths, pad_sequence(trgs, batch_first=True)


class Encoder(nn.Module):
    def __init__(self, emb=32, hid=64):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hid, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hid, hid)

    def forward(self, src, lengths):
        packed = pack_padded_sequence(self.embedding(src), lengths, batch_first=True)
        out, h = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=src.size(1))
        hidden = torch.tanh(self.fc(torch.cat([h[-2], h[-1]], dim=1)))
        return out, hidden


class Attention(nn.Module):
    def __init__(self, hid=64):
        super().__init__()
        self.attn = nn.Linear(3 * hid, hid)
        self.v = nn.Linear(hid, 1, bias=False)

    def forward(self, hidden, enc_out, mask):
        S = enc_out.size(1)
        h = hidden.unsqueeze(1).expand(-1, S, -1)
        energy = torch.tanh(self.attn(torch.cat([h, enc_out], dim=2)))
        scores = self.v(energy).squeeze(2).masked_fill(~mask, -1e10)
        return F.softmax(scores, dim=1)


class Decoder(nn.Module):
    def __init__(self, emb=32, hid=64):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, emb, padding_idx=PAD)
        self.attention = Attention(hid)
        self.rnn = nn.GRU(emb + 2 * hid, hid, batch_first=True)
        self.out = nn.Linear(emb + 3 * hid, VOCAB)

    def forward(self, token, hidden, enc_out, mask):
        emb = self.embedding(token).unsqueeze(1)
        a = self.attention(hidden, enc_out, mask).unsqueeze(1)
        ctx = torch.bmm(a, enc_out)
        out, hidden = self.rnn(torch.cat([emb, ctx], dim=2), hidden.unsqueeze(0))
        pred = self.out(torch.cat([out, ctx, emb], dim=2).squeeze(1))
        return pred, hidden.squeeze(0)


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()

    def forward(self, src, lengths, trg, teacher_forcing_ratio=0.5):
        enc_out, hidden = self.encoder(src, lengths)
        mask = src.ne(PAD)  # padding mask for this batch
        logits = []
        token = trg[:, 0]
        for t in range(1, trg.size(1)):
            pred, hidden = self.decoder(token, hidden, enc_out, mask)
            logits.append(pred)
            token = trg[:, t] if random.random() < teacher_forcing_ratio else pred.argmax(1)
        return torch.stack(logits, dim=1)

    @torch.no_grad()
    def greedy(self, src, lengths, max_len=12):
        enc_out, hidden = self.encoder(src, lengths)
        mask = src.ne(PAD)
        token = torch.full((src.size(0),), SOS, dtype=torch.long, device=src.device)
        out = []
        for _ in range(max_len):
            pred, hidden = self.decoder(token, hidden, enc_out, mask)
            token = pred.argmax(1)
            out.append(token)
        return torch.stack(out, dim=1)


train_loader = DataLoader(make_pairs(512), batch_size=32, shuffle=True, collate_fn=collate)
valid_loader = DataLoader(make_pairs(64), batch_size=32, collate_fn=collate)

model = Seq2Seq().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
criterion = nn.CrossEntropyLoss(ignore_index=PAD)

for epoch in range(3):
    model.train()
    total = 0.0
    for src, lengths, trg in train_loader:
        # lengths stay on the CPU: pack_padded_sequence wants them there
        src, trg = src.to(device), trg.to(device)
        logits = model(src, lengths, trg)
        loss = criterion(logits.reshape(-1, VOCAB), trg[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total += loss.item()

    model.eval()
    exact = count = 0
    for src, lengths, trg in valid_loader:
        src = src.to(device)
        pred = model.greedy(src, lengths).cpu()
        for p, t in zip(pred.tolist(), trg.tolist()):
            t = [tok for tok in t[1:] if tok != PAD]
            p = p[: p.index(EOS) + 1] if EOS in p else p
            exact += int(p == t)
            count += 1
    print(f"epoch {epoch}: loss {total / len(train_loader):.3f}  exact match {exact / count:.3f}")
