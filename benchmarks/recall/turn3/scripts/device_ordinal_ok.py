"""Pinning to a second GPU done right: the ordinal is used only when device_count() says it exists."""
import argparse

import torch
import torch.nn as nn


def choose(gpu: int) -> torch.device:
    if torch.cuda.is_available() and torch.cuda.device_count() > gpu:
        return torch.device(f"cuda:{gpu}")
    return torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--gpu", type=int, default=1)
    args = p.parse_args()
    device = choose(args.gpu)
    aux = torch.device("cuda:1" if torch.cuda.device_count() > 1 else device)
    model = nn.Linear(16, 4).to(device)
    probe = nn.Linear(4, 1).to(aux)
    x = torch.randn(8, 16, device=device)
    print(probe(model(x).to(aux)).shape)
