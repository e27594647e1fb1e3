# GRU encoder-decoder with teacher forcing, trained on a toy "translation" task
# (output = input digits reversed and shifted by one). Layout follows the usual
# [seq_len, batch] convention of the torchtext-era tutorials.
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

PAD_IDX, SOS_IDX, EOS_IDX = 0, 1, 2
N_SPECIAL = 3
N_DIGITS = 10
VOCAB = N_SPECIAL + N_DIGITS

SEED = 1234
random.seed(SEED)
torch.manual_seed(SEED)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class ReverseShiftDataset(Dataset):
    def __init__(self, n=512, min_len=3, max_len=8):
        self.pairs = []
        for _ in range(n):
            digits = [random.randrange(N_DIGITS) for _ in range(random.randint(min_len, max_len))]
            src = [d + N_SPECIAL for d in digits]
            trg = [((d + 1) % N_DIGITS) + N_SPECIAL for d in reversed(digits)]
            self.pairs.append((src, trg))

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        return self.pairs[i]


def collate(batch):
    max_src = max(len(s) for s, _ in batch) + 2
    max_trg = max(len(t) for _, t in batch) + 2
    src = torch.full((max_src, len(batch)), PAD_IDX, dtype=torch.long)
    trg = torch.full((max_trg, len(batch)), PAD_IDX, dtype=torch.long)
    for j, (s, t) in enumerate(batch):
        s = [SOS_IDX] + s + [EOS_IDX]
        t = [SOS_IDX] + t + [EOS_IDX]
        src[: len(s), j] = torch.tensor(s)
        trg[: len(t), j] = torch.tensor(t)
    return src, trg


class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, hid_dim, dropout):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, emb_dim, padding_idx=PAD_IDX)
        self.rnn = nn.GRU(emb_dim, hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src):
        embedded = self.dropout(self.embedding(src))
        _, hidden = self.rnn(embedded)
        return hidden


class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, hid_dim, dropout):
        super().__init__()
        self.output_dim = output_dim
        self.embedding = nn.Embedding(output_dim, emb_dim, padding_idx=PAD_IDX)
        self.rnn = nn.GRU(emb_dim + hid_dim, hid_dim)
        self.fc_out = nn.Linear(emb_dim + hid_dim * 2, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input, hidden, context):
        input = input.unsqueeze(0)
        embedded = self.dropout(self.embedding(input))
        emb_con = torch.cat((embedded, context), dim=2)
        output, hidden = self.rnn(emb_con, hidden)
        output = torch.cat((embedded.squeeze(0), hidden.squeeze(0), context.squeeze(0)), dim=1)
        return self.fc_out(output), hidden


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, trg, teacher_forcing_ratio=0.5):
        trg_len, batch_size = trg.shape
        trg_vocab_size = self.decoder.output_dim
        outputs = torch.zeros(trg_len, batch_size, trg_vocab_size)  # expect: DEV006

        context = self.encoder(src)
        hidden = context
        input = trg[0, :]
        for t in range(1, trg_len):
            output, hidden = self.decoder(input, hidden, context)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            top1 = output.argmax(1)
            input = trg[t] if teacher_force else top1
        return outputs


def greedy_decode(model, src, max_len=12):
    """src: [src_len, batch] already on the model's device."""
    model.eval()
    with torch.no_grad():
        context = model.encoder(src)
        hidden = context
        input = torch.full((src.shape[1],), SOS_IDX, dtype=torch.long)  # expect: DEV006
        tokens = []
        for _ in range(max_len):
            output, hidden = model.decoder(input, hidden, context)
            input = output.argmax(1)
            tokens.append(input)
    return torch.stack(tokens)


def train_epoch(model, loader, optimizer, criterion, clip=1.0):
    model.train()
    epoch_loss = 0.0
    for src, trg in loader:
        src, trg = src.to(device), trg.to(device)
        optimizer.zero_grad()
        output = model(src, trg)
        output_dim = output.shape[-1]
        loss = criterion(output[1:].view(-1, output_dim), trg[1:].view(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        epoch_loss += loss.item()
    return epoch_loss / len(loader)


def main():
    enc = Encoder(VOCAB, 32, 64, 0.1)
    dec = Decoder(VOCAB, 32, 64, 0.1)
    model = Seq2Seq(enc, dec).to(device)
    for name, param in model.named_parameters():
        nn.init.normal_(param.data, mean=0, std=0.08)

    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD_IDX)
    loader = DataLoader(ReverseShiftDataset(), batch_size=64, shuffle=True, collate_fn=collate)

    for epoch in range(3):
        loss = train_epoch(model, loader, optimizer, criterion)
        print(f"epoch {epoch + 1:02} | train loss {loss:.3f}")

    src, trg = collate(ReverseShiftDataset(n=4).pairs)
    pred = greedy_decode(model, src.to(device))
    for j in range(src.shape[1]):
        print("src ", src[:, j].tolist())
        print("gold", trg[1:, j].tolist())
        print("pred", pred[:, j].tolist())


if __name__ == "__main__":
    main()
