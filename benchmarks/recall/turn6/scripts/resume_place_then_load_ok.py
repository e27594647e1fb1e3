"""Correct look-alike: resume in the usual order (build, move, build the optimizer, load with
map_location), and a deep copy for EMA taken after the move."""
import argparse
import copy
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="mlp_last.pt")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    if os.path.exists(args.resume):
        ckpt = torch.load(args.resume, map_location=device)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    for step in range(40):
        x = torch.randn(32, 6, device=device)
        loss = F.mse_loss(model(x), x[:, :1] * 2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            for pe, pm in zip(ema.parameters(), model.parameters()):
                pe.mul_(0.99).add_(pm, alpha=0.01)
    print(F.mse_loss(ema(x), x[:, :1] * 2).item())
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, args.resume)


if __name__ == "__main__":
    main()
