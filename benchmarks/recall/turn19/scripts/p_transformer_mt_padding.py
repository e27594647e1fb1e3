"""nn.Transformer translation model on a toy copy-and-shift task.

The collate function pads each batch to its own length and builds the source
padding mask there, once, instead of in every forward.
"""
import argparse
import math
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

PAD, BOS, EOS = 0, 1, 2


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=128):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class Translator(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, d_model=64, nhead=4, layers=2):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, d_model, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model, padding_idx=PAD)
        self.pos = PositionalEncoding(d_model)
        self.transformer = nn.Transformer(d_model, nhead, layers, layers, 2 * d_model, dropout=0.1, batch_first=True)
        self.generator = nn.Linear(d_model, tgt_vocab)

    def forward(self, src, tgt_in, src_key_padding_mask):
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt_in.size(1), device=tgt_in.device)
        out = self.transformer(
            self.pos(self.src_emb(src)),
            self.pos(self.tgt_emb(tgt_in)),
            tgt_mask=tgt_mask,
            src_key_padding_mask=src_key_padding_mask,
            tgt_key_padding_mask=tgt_in.eq(PAD),
            memory_key_padding_mask=src_key_padding_mask,
        )
        return self.generator(out)


def toy_corpus(n, vocab):
    data = []
    for _ in range(n):
        L = random.randint(4, 10)
        src = torch.randint(3, vocab, (L,))
        tgt = torch.cat([torch.tensor([BOS]), (src - 3 + 1) % (vocab - 3) + 3, torch.tensor([EOS])])
        data.append((src, tgt))
    return data


def collate(batch):
    src, tgt = zip(*batch)
    src = pad_sequence(src, batch_first=True, padding_value=PAD)
    tgt = pad_sequence(tgt, batch_first=True, padding_value=PAD)
    src_pad_mask = src.eq(PAD)
    return src, tgt, src_pad_mask


def train_epoch(model, loader, optimizer, criterion, device):
    model.train()
    total = 0.0
    for src, tgt, src_pad_mask in loader:
        src, tgt = src.to(device), tgt.to(device)
        tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
        logits = model(src, tgt_in, src_pad_mask)  # expect: DEV002
        loss = criterion(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--vocab", type=int, default=24)
    p.add_argument("--cpu", action="store_true", help="force CPU even if a GPU is present")
    args = p.parse_args()

    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")
    random.seed(0)
    torch.manual_seed(0)
    loader = DataLoader(toy_corpus(192, args.vocab), batch_size=32, shuffle=True, collate_fn=collate)

    model = Translator(args.vocab, args.vocab).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4, betas=(0.9, 0.98))
    criterion = nn.CrossEntropyLoss(ignore_index=PAD, label_smoothing=0.1)
    for epoch in range(args.epochs):
        print(f"epoch {epoch}: {train_epoch(model, loader, optimizer, criterion, device):.3f}")


if __name__ == "__main__":
    main()
