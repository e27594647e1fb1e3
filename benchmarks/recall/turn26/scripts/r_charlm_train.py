"""Character-level LSTM language model: sanity-check loss before training, train, validate, sample."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

TEXT = "the quick brown fox jumps over the lazy dog. " * 200


class CharLSTM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        out, state = self.lstm(self.emb(x), state)
        return self.head(out), state


def make_loaders(seq_len=32):
    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in TEXT])
    n = (len(data) - 1) // seq_len
    x = data[: n * seq_len].view(n, seq_len)
    y = data[1 : n * seq_len + 1].view(n, seq_len)
    split = int(0.9 * n)
    train = DataLoader(TensorDataset(x[:split], y[:split]), batch_size=16, shuffle=True)
    val = DataLoader(TensorDataset(x[split:], y[split:]), batch_size=16)
    return train, val, chars


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    total, count = 0.0, 0
    for x, y in loader:
        x.to(device)  # expect: DEV005
        y = y.to(device)
        logits, _ = model(x)  # also: DEV002
        total += F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1), reduction="sum").item()
        count += y.numel()
    model.train()
    return total / count


@torch.no_grad()
def sample(model, chars, device, n=60):
    idx = torch.zeros(1, 1, dtype=torch.long, device=device)
    state, out = None, []
    for _ in range(n):
        logits, state = model(idx, state)
        idx = torch.multinomial(logits[:, -1].softmax(-1), 1)
        out.append(chars[idx.item()])
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader, val_loader, chars = make_loaders()
    model = CharLSTM(len(chars)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    x, y = next(iter(train_loader))
    x, y = x.to(device), y.to(device)  # expect: DEV003
    with torch.no_grad():
        logits, _ = model(x)
        print("initial loss", F.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1)).item())

    for epoch in range(args.epochs):
        for x, y in train_loader:
            logits, _ = model(x)  # also: DEV002
            loss = F.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1))  # also: DEV004
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        print(f"epoch {epoch} train {loss.item():.3f} val {evaluate(model, val_loader, device):.3f}")
    print(sample(model, chars, device))


if __name__ == "__main__":
    main()
