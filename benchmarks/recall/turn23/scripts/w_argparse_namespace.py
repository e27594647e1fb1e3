"""Char-level next-token model; the argparse namespace is passed to every helper (device included)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog " * 20


def get_args():
    parser = argparse.ArgumentParser(description="tiny char LM")
    parser.add_argument("--gpu", type=int, default=1, help="which GPU to use (0 is shared)")  # expect: DEV018
    parser.add_argument("--block", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--lr", type=float, default=3e-3)
    args = parser.parse_args()
    args.device = torch.device(f"cuda:{args.gpu}" if torch.cuda.is_available() else "cpu")
    return args


class CharLM(nn.Module):
    def __init__(self, vocab, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, idx):
        h, _ = self.rnn(self.emb(idx))
        return self.out(h)


def build_vocab(text):
    chars = sorted(set(text))
    return {c: i for i, c in enumerate(chars)}


def sample_batch(args, data):
    ix = torch.randint(0, len(data) - args.block - 1, (args.batch_size,))
    x = torch.stack([data[i:i + args.block] for i in ix])
    y = torch.stack([data[i + 1:i + args.block + 1] for i in ix])
    return x.to(args.device), y.to(args.device)


def train_step(args, model, optimizer, batch):
    model.to(args.device)  # expect: DEV007
    model.train()
    x, y = batch
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return loss.item()


@torch.no_grad()
def generate(args, model, stoi, prompt="the ", n=20):
    itos = {i: c for c, i in stoi.items()}
    idx = torch.tensor([[stoi[c] for c in prompt]], device=args.device)
    model.eval()
    for _ in range(n):
        nxt = model(idx)[:, -1].argmax(-1, keepdim=True)
        idx = torch.cat([idx, nxt], dim=1)
    return "".join(itos[i] for i in idx[0].tolist())


def main():
    args = get_args()
    stoi = build_vocab(TEXT)
    data = torch.tensor([stoi[c] for c in TEXT])
    model = CharLM(len(stoi)).to(args.device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for step in range(args.steps):
        loss = train_step(args, model, optimizer, sample_batch(args, data))
        if step % 10 == 0:
            print(f"step {step} loss {loss:.3f}")
    print(repr(generate(args, model, stoi)))


if __name__ == "__main__":
    main()
