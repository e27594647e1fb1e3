"""Train the encoder/decoder pair to reverse short token sequences."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import Decoder, Encoder

PAD, SOS, EOS = 0, 1, 2
VOCAB, SEQ_LEN = 16, 6


def make_pairs(n):
    src = torch.randint(3, VOCAB, (n, SEQ_LEN))
    tgt = torch.cat([src.flip(1), torch.full((n, 1), EOS)], dim=1)
    return TensorDataset(src, tgt)


def train_step(encoder, decoder, src, tgt, criterion, teacher_forcing=0.5):
    _, hidden = encoder(src)
    dec_input = decoder.start_tokens(src.size(0))
    loss = 0.0
    for t in range(tgt.size(1)):
        logits, hidden = decoder(dec_input, hidden)
        loss = loss + criterion(logits, tgt[:, t])
        if random.random() < teacher_forcing:
            dec_input = tgt[:, t].unsqueeze(1)
        else:
            dec_input = logits.argmax(-1, keepdim=True)
    return loss / tgt.size(1)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(make_pairs(128), batch_size=16, shuffle=True)
    encoder = Encoder(VOCAB).to(device)
    decoder = Decoder(VOCAB, sos_idx=SOS).to(device)
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=3e-3)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD)

    for epoch in range(3):
        total = 0.0
        for src, tgt in loader:
            src, tgt = src.to(device), tgt.to(device)
            loss = train_step(encoder, decoder, src, tgt, criterion)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(encoder.parameters(), 1.0)
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.3f}")


if __name__ == "__main__":
    main()
