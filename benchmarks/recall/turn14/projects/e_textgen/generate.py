"""Train a tiny char model, checkpoint it, reload it and sample.

    python generate.py [--device auto|cpu|cuda|cuda:1] [--prompt "to be"]
"""
import argparse
import os
import tempfile

import numpy as np
import torch

from textgen import CharTransformer, GenConfig
from textgen.checkpoint import load, save
from textgen.sampling import sample
from textgen.utils import move_batch, resolve_device

TEXT = ("to be, or not to be, that is the question: whether 'tis nobler in the mind to suffer "
        "the slings and arrows of outrageous fortune, or to take arms against a sea of troubles. ") * 8


def batches(data, cfg, generator):
    while True:
        ix = torch.randint(0, len(data) - cfg.block_size - 1, (cfg.batch_size,), generator=generator)
        x = torch.stack([data[i:i + cfg.block_size] for i in ix])
        y = torch.stack([data[i + 1:i + cfg.block_size + 1] for i in ix])
        yield {"input_ids": x, "labels": y}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="auto")
    ap.add_argument("--prompt", default="to be")
    ap.add_argument("--n-samples", type=int, default=3)
    args = ap.parse_args()

    cfg = GenConfig(device=args.device)
    device = resolve_device(cfg.device)
    vocab = sorted(set(TEXT) | set(cfg.banned_chars))
    stoi = {c: i for i, c in enumerate(vocab)}
    data = torch.tensor([stoi[c] for c in TEXT])

    model = CharTransformer(len(vocab), cfg).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    stream = batches(data, cfg, torch.Generator().manual_seed(0))
    for step in range(cfg.train_steps):
        batch = move_batch(next(stream), device)
        _, loss = model(batch["input_ids"], batch["labels"])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"step {step} loss {loss.item():.3f}")

    path = os.path.join(tempfile.gettempdir(), "e_textgen.pt")
    save(path, model, opt, step, vocab)

    fresh = CharTransformer(len(vocab), cfg).to(device)
    _, vocab = load(path, fresh, device=device)
    prompt = torch.tensor([[stoi[c] for c in args.prompt]] * args.n_samples, device=device)
    banned = [stoi[c] for c in cfg.banned_chars]
    out, logprob = sample(fresh, prompt, 60, cfg, banned_ids=banned)
    scores = logprob.cpu().numpy()
    for row, score in zip(out.tolist(), scores):
        print(f"{score:8.2f}  {''.join(vocab[i] for i in row)!r}")
    print("best sample:", int(np.argmax(scores)))


if __name__ == "__main__":
    main()
