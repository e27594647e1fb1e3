"""Train the tiny decoder on synthetic arithmetic-like sequences and report sample diversity."""
import argparse

import torch
import torch.nn.functional as F

from textgen import GenConfig, TinyDecoder
from textgen.report import token_stats, write_report
from textgen.sampling import generate


def synthetic_batch(cfg: GenConfig):
    start = torch.randint(0, cfg.vocab_size, (cfg.batch_size, 1))
    step = torch.randint(1, 4, (cfg.batch_size, 1))
    seq = (start + step * torch.arange(cfg.block_size + 1)) % cfg.vocab_size
    return seq[:, :-1], seq[:, 1:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--report", default="gen_report.json")
    args = ap.parse_args()
    cfg = GenConfig()
    if args.steps is not None:
        cfg.steps = args.steps

    model = TinyDecoder(cfg).to(cfg.device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        x, y = synthetic_batch(cfg)
        x, y = x.to(cfg.device), y.to(cfg.device)
        loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()

    prompt = torch.randint(0, cfg.vocab_size, (4, 3), device=cfg.device)
    samples = generate(model, prompt, cfg)
    stats = token_stats(samples)
    write_report(stats, args.report)
    print(f"loss {loss.item():.3f}", stats)


if __name__ == "__main__":
    main()
