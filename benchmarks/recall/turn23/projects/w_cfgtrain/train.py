"""Entry point: python train.py [--config cfg.yaml] [--device cpu] [--epochs N]"""
import argparse

import torch

from cfgtrain import Trainer, build_criterion, build_model, load_config, resolve_device
from cfgtrain.callbacks import LossPrinter, TagHistogram


def synthetic_batches(cfg, n_batches, seed):
    g = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(n_batches):
        tokens = torch.randint(1, cfg.vocab_size, (cfg.batch_size, cfg.seq_len), generator=g)
        tags = (tokens % cfg.num_tags).clone()
        lengths = torch.randint(cfg.seq_len // 2, cfg.seq_len + 1, (cfg.batch_size,), generator=g)
        pad = torch.arange(cfg.seq_len).unsqueeze(0) >= lengths.unsqueeze(1)
        tokens[pad] = 0
        tags[pad] = -100
        batches.append({"tokens": tokens, "tags": tags})
    return batches


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config")
    ap.add_argument("--device")
    ap.add_argument("--epochs", type=int)
    args = ap.parse_args()

    cfg = load_config(args.config, device=args.device, epochs=args.epochs)
    device = resolve_device(cfg)
    model = build_model(cfg)
    criterion = build_criterion(cfg)
    trainer = Trainer(cfg, model, criterion, device, callbacks=[LossPrinter(), TagHistogram()])
    trainer.fit(synthetic_batches(cfg, 6, 0), synthetic_batches(cfg, 2, 1))


if __name__ == "__main__":
    main()
