"""Train a tiny character LM on a built-in text for a few steps, then sample.

    python generate.py --prompt "the " --samples 3 [--cpu]
"""
import argparse

import torch

from textgen.config import GenConfig, pick_device
from textgen.model import CharLM
from textgen.postprocess import decode, encode
from textgen.sampling import banned_token_ids, sample

CORPUS = ("the quick brown fox jumps over the lazy dog. " * 20
          + "a stitch in time saves nine, the early bird catches the worm.\n" * 10)


def batches(data, context, batch_size, device):
    while True:
        ix = torch.randint(0, len(data) - context - 1, (batch_size,))
        x = torch.stack([data[i:i + context] for i in ix])
        y = torch.stack([data[i + 1:i + 1 + context] for i in ix])
        yield x.to(device), y.to(device)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prompt", default="the ")
    ap.add_argument("--samples", type=int, default=3)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    cfg = GenConfig()
    device = pick_device(prefer_gpu=not args.cpu)
    torch.manual_seed(0)

    data = torch.tensor(encode(CORPUS, cfg.vocab), dtype=torch.long)
    model = CharLM(len(cfg.vocab), cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.context).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    stream = batches(data, cfg.context, 32, device)
    for step in range(cfg.train_steps):
        x, y = next(stream)
        _, loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"train loss after {cfg.train_steps} steps: {loss.item():.3f}")

    prompt = torch.tensor([encode(args.prompt, cfg.vocab)] * args.samples, device=device)
    out = sample(model, prompt, cfg, banned_token_ids(cfg.vocab, cfg.banned))
    for text in decode(out, cfg.vocab):
        print(repr(text))


if __name__ == "__main__":
    main()
