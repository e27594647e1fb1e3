# GRU encoder-decoder with teacher forcing on a toy "reverse the sequence" task.
# Sequences are padded per batch and packed in the encoder.
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader

PAD_IDX, SOS_IDX, EOS_IDX = 0, 1, 2
VOCAB = 20
N_EPOCHS = 2
CLIP = 1.0
TF_RATIO = 0.5

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
random.seed(0)
torch.manual_seed(0)


def make_pairs(n):
    pairs = []
    for _ in range(n):
        L = random.randint(3, 9)
        src = torch.randint(3, VOCAB, (L,))
        trg = torch.cat([src.flip(0), torch.tensor([EOS_IDX])])
        pairs.append((src, trg))
    return pairs


def collate(batch):
    srcs, trgs = zip(*batch)
    src_len = torch.tensor([len(s) for s in srcs])
    src = pad_sequence(srcs, padding_value=PAD_IDX)   # (S, B)
    trg = pad_sequence(trgs, padding_value=PAD_IDX)   # (T, B)
    return src, src_len, trg


class Encoder(nn.Module):
    def __init__(self, vocab, emb_dim, hid_dim, dropout):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb_dim, padding_idx=PAD_IDX)
        self.rnn = nn.GRU(emb_dim, hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src, src_len):
        embedded = self.dropout(self.embedding(src))
        packed = pack_padded_sequence(embedded, src_len, enforce_sorted=False)
        _, hidden = self.rnn(packed)
        return hidden


class Decoder(nn.Module):
    def __init__(self, vocab, emb_dim, hid_dim, dropout):
        super().__init__()
        self.output_dim = vocab
        self.embedding = nn.Embedding(vocab, emb_dim, padding_idx=PAD_IDX)
        self.rnn = nn.GRU(emb_dim, hid_dim)
        self.fc_out = nn.Linear(hid_dim, vocab)
        self.dropout = nn.Dropout(dropout)

    def forward(self, inp, hidden):
        embedded = self.dropout(self.embedding(inp.unsqueeze(0)))
        output, hidden = self.rnn(embedded, hidden)
        return self.fc_out(output.squeeze(0)), hidden


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, device):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.device = device

    def forward(self, src, src_len, trg, teacher_forcing_ratio=0.5):
        batch_size = src.shape[1]
        trg_len = trg.shape[0]
        outputs = torch.zeros(trg_len, batch_size, self.decoder.output_dim, device=self.device)
        hidden = self.encoder(src, src_len)
        inp = torch.full((batch_size,), SOS_IDX, dtype=torch.long)  # expect: DEV006
        for t in range(trg_len):
            output, hidden = self.decoder(inp, hidden)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            inp = trg[t] if teacher_force else output.argmax(1)
        return outputs


train_loader = DataLoader(make_pairs(256), batch_size=32, shuffle=True, collate_fn=collate)

enc = Encoder(VOCAB, 32, 64, 0.1)
dec = Decoder(VOCAB, 32, 64, 0.1)
model = Seq2Seq(enc, dec, device).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss(ignore_index=PAD_IDX)

# look at one batch before training
src, src_len, trg = next(iter(train_loader))
src, trg = src.to(device), trg.to(device)  # expect: DEV003
print("src", tuple(src.shape), "trg", tuple(trg.shape), "lengths", src_len.tolist()[:8])

for epoch in range(N_EPOCHS):
    model.train()
    epoch_loss = 0.0
    for src, src_len, trg in train_loader:
        optimizer.zero_grad()
        output = model(src, src_len, trg, TF_RATIO)  # also: DEV002
        loss = criterion(output.view(-1, output.shape[-1]), trg.view(-1))  # also: DEV004
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        optimizer.step()
        epoch_loss += loss.item()
    print(f"epoch {epoch + 1}: train loss {epoch_loss / len(train_loader):.3f}")
