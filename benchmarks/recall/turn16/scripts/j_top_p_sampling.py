#!/usr/bin/env python
"""LSTM language model + old-school run_generation style sampling (top-k / top-p,
repetition penalty)."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CORPUS = """once upon a time there was a little robot who loved to read books .
every night the robot read a new book and dreamed of far away places .
one day the robot decided to travel and see the places from the books .""".split()


class Vocab:
    def __init__(self, tokens):
        self.itos = ["<pad>"] + sorted(set(tokens))
        self.stoi = {t: i for i, t in enumerate(self.itos)}

    def encode(self, toks):
        return [self.stoi[t] for t in toks]

    def decode(self, ids):
        return " ".join(self.itos[i] for i in ids)


class LSTMLM(nn.Module):
    def __init__(self, vocab_size, emb=32, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, x, state=None):
        h, state = self.lstm(self.emb(x), state)
        return self.out(h), state


def top_k_top_p_filtering(logits, top_k=0, top_p=0.0, filter_value=-float("inf")):
    """Filter a (batch, vocab) distribution of logits using top-k and/or nucleus filtering."""
    if top_k > 0:
        kth = torch.topk(logits, top_k)[0][..., -1, None]
        logits = logits.masked_fill(logits < kth, filter_value)
    if top_p > 0.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_to_remove = cumulative_probs > top_p
        # keep at least the first token above the threshold
        sorted_to_remove[..., 1:] = sorted_to_remove[..., :-1].clone()
        sorted_to_remove[..., 0] = 0
        to_remove = torch.zeros(logits.shape, dtype=torch.bool)  # expect: DEV006
        to_remove.scatter_(1, sorted_indices, sorted_to_remove)
        logits = logits.masked_fill(to_remove, filter_value)
    return logits


def sample_sequence(model, context, length, num_samples=1, temperature=1.0, top_k=0, top_p=0.0,
                    repetition_penalty=1.0, device="cpu"):
    context = torch.tensor(context, dtype=torch.long, device=device)
    generated = context.unsqueeze(0).repeat(num_samples, 1)
    with torch.no_grad():
        logits, state = model(generated)
        for _ in range(length):
            next_logits = logits[:, -1, :] / (temperature if temperature > 0 else 1.0)
            for i in range(num_samples):
                for tok in set(generated[i].tolist()):
                    next_logits[i, tok] /= repetition_penalty
            filtered = top_k_top_p_filtering(next_logits, top_k=top_k, top_p=top_p)
            if temperature == 0:
                next_token = torch.argmax(filtered, dim=-1, keepdim=True)
            else:
                next_token = torch.multinomial(F.softmax(filtered, dim=-1), num_samples=1)
            generated = torch.cat((generated, next_token), dim=1)
            logits, state = model(next_token, state)
    return generated


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompt", default="the robot")
    parser.add_argument("--length", type=int, default=12)
    parser.add_argument("--temperature", type=float, default=0.9)
    parser.add_argument("--top_k", type=int, default=0)
    parser.add_argument("--top_p", type=float, default=0.9)
    parser.add_argument("--repetition_penalty", type=float, default=1.2)
    parser.add_argument("--num_samples", type=int, default=3)
    parser.add_argument("--no_cuda", action="store_true")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    args.device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    vocab = Vocab(CORPUS)
    ids = torch.tensor(vocab.encode(CORPUS))
    model = LSTMLM(len(vocab.itos)).to(args.device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    seq_len = 8
    for step in range(80):
        starts = np.random.randint(0, len(ids) - seq_len - 1, size=16)
        x = torch.stack([ids[s:s + seq_len] for s in starts]).to(args.device)
        y = torch.stack([ids[s + 1:s + seq_len + 1] for s in starts]).to(args.device)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"train loss {loss.item():.3f}")

    model.eval()
    context = vocab.encode(args.prompt.split())
    out = sample_sequence(model, context, args.length, num_samples=args.num_samples,
                          temperature=args.temperature, top_k=args.top_k, top_p=args.top_p,
                          repetition_penalty=args.repetition_penalty, device=args.device)
    out = out[:, len(context):]
    for row in out.numpy():  # expect: DEV011
        print(args.prompt, "|", vocab.decode(row))


if __name__ == "__main__":
    main()
