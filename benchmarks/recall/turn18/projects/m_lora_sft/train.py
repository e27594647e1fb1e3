"""Entry point: python train.py [--epochs N]"""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from sftkit import InstructionDataset, TinyCausalLM, TrainConfig, collate, to_device


def parse_args():
    cfg = TrainConfig()
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=cfg.epochs)
    ap.add_argument("--lr", type=float, default=cfg.lr)
    args = ap.parse_args()
    cfg.epochs, cfg.lr = args.epochs, args.lr
    return cfg


def main():
    cfg = parse_args()
    torch.manual_seed(0)
    model = TinyCausalLM(cfg).to(cfg.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    loader = DataLoader(InstructionDataset(vocab_size=cfg.vocab_size), batch_size=cfg.batch_size,
                        shuffle=True, collate_fn=collate)

    step = 0
    for epoch in range(cfg.epochs):
        model.train()
        for batch in loader:
            inputs = to_device(batch, cfg.device)
            logits = model(**inputs)
            V = logits.size(-1)
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, V), batch["labels"][:, 1:].reshape(-1), ignore_index=-100)  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if step % cfg.log_every == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
