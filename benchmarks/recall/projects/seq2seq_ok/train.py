"""Train and evaluate an LSTM encoder/decoder on sequence reversal."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import PAD, SOS, ReversalDataset, collate
from model import Decoder, Encoder
from utils.batch import move_to
from utils.metrics import accuracies

VOCAB = 16


def run_decoder(decoder, hidden, tgt, teacher_forcing):
    dec_input = decoder.start_tokens(tgt.size(0), tgt.device)
    steps = []
    for t in range(tgt.size(1)):
        logits, hidden = decoder(dec_input, hidden)
        steps.append(logits)
        use_gold = random.random() < teacher_forcing
        dec_input = tgt[:, t:t + 1] if use_gold else logits.argmax(-1, keepdim=True)
    return torch.stack(steps, dim=1)


def main():
    torch.manual_seed(0)
    random.seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(ReversalDataset(160, VOCAB), batch_size=16, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(ReversalDataset(32, VOCAB, seed=1), batch_size=16, collate_fn=collate)
    encoder, decoder = Encoder(VOCAB).to(device), Decoder(VOCAB, sos_idx=SOS).to(device)
    optimizer = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=3e-3)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD)

    for epoch in range(3):
        encoder.train(), decoder.train()
        for batch in train_loader:
            batch = move_to(batch, device)
            _, hidden = encoder(batch["src"], batch["src_lengths"])
            logits = run_decoder(decoder, hidden, batch["tgt"], teacher_forcing=0.5)
            loss = criterion(logits.reshape(-1, VOCAB), batch["tgt"].reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        encoder.eval(), decoder.eval()
        with torch.no_grad():
            batch = move_to(next(iter(val_loader)), device)
            _, hidden = encoder(batch["src"], batch["src_lengths"])
            preds = run_decoder(decoder, hidden, batch["tgt"], teacher_forcing=0.0).argmax(-1)
            token_acc, seq_acc = accuracies(preds, batch["tgt"])
        print(f"epoch {epoch}: loss {loss.item():.3f} token acc {token_acc:.2f} seq acc {seq_acc:.2f}")


if __name__ == "__main__":
    main()
