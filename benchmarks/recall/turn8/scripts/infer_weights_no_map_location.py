"""Denoising-autoencoder inference CLI meant for laptops and GPU boxes alike; it restores weights a
GPU training run saved.

Thread: https://github.com/hkchengrex/Cutie/issues/37 (Attempting to deserialize object on a CUDA
device but torch.cuda.is_available() is False); https://github.com/keunsoo-ko/CMT/issues/1.
"""
import argparse

import torch
import torch.nn as nn


class DAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc, self.dec = nn.Linear(64, 16), nn.Linear(16, 64)

    def forward(self, x):
        return self.dec(torch.relu(self.enc(x)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default="dae_best.pth")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = DAE()
    model.load_state_dict(torch.load(args.weights))  # expect: DEV008
    model.to(device).eval()
    with torch.no_grad():
        print(model(torch.randn(2, 64, device=device)).shape)


if __name__ == "__main__":
    main()
