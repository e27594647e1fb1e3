"""Batch inference of a convolutional denoiser over synthetic spectrogram tiles; --device picks
where it runs and the denoised tiles are written to an .npy file.

Thread: https://github.com/LuyaooChen/uninformed-students-pytorch/issues/3 (RuntimeError: CUDA
error: invalid device ordinal, from torch.device('cuda:1') on a machine with one GPU).
"""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, 1, 3, padding=1))

    def forward(self, x):
        return x - self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", default="weights/denoiser.pt")
    parser.add_argument("--device", default="cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--out", default="denoised.npy")
    args = parser.parse_args()
    device = torch.device(args.device)

    model = Denoiser()
    if os.path.exists(args.weights):
        model.load_state_dict(torch.load(args.weights, map_location=device))
    model.to(device).eval()

    tiles = np.random.rand(64, 1, 32, 32).astype(np.float32)
    outputs = []
    with torch.no_grad():
        for start in range(0, len(tiles), args.batch_size):
            batch = torch.from_numpy(tiles[start:start + args.batch_size]).to(device)
            outputs.append(model(batch).clamp(0, 1).cpu().numpy())
    np.save(args.out, np.concatenate(outputs))
    print("wrote", args.out, np.concatenate(outputs).shape)


if __name__ == "__main__":
    main()
