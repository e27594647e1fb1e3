"""Image denoiser training with --resume: a build() function creates the model and optimizer
and restores both from the last checkpoint; main() places the model afterwards."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


def build(resume_path):
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    start = 0
    if resume_path and os.path.exists(resume_path):
        ckpt = torch.load(resume_path, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        start = ckpt["epoch"] + 1
    return model, optimizer, start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="denoiser_last.pt")
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model, optimizer, start = build(args.resume)
    model = model.to(device)
    clean = torch.rand(64, 1, 16, 16)
    for epoch in range(start, start + args.epochs):
        for i in range(0, 64, 16):
            x = clean[i:i + 16].to(device)
            noisy = x + 0.1 * torch.randn_like(x)
            loss = F.mse_loss(model(noisy), x)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch},
                   args.resume)
    print(loss.item())


if __name__ == "__main__":
    main()
