"""Correct look-alike: argparse script whose --no-cuda flag is honoured everywhere. The model goes
to the chosen device, a --gpu index above 0 is used only when that many GPUs exist, and the
checkpoint is loaded with map_location so that a file written on a GPU opens on a laptop.

Thread: https://github.com/aatifjiwani/rgb-footprint-extract/issues/16 (testing on a CPU-only
machine with --no-cuda still fails to deserialize a CUDA checkpoint).
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def pick_device(no_cuda, gpu):
    if no_cuda or not torch.cuda.is_available():
        return torch.device("cpu")
    if gpu >= torch.cuda.device_count():
        print(f"GPU {gpu} not present, using cuda:0")
        gpu = 0
    return torch.device("cuda", gpu)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cuda", action="store_true")
    parser.add_argument("--gpu", type=int, default=1)
    parser.add_argument("--weights", default="charcnn_best.pth")
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = pick_device(args.no_cuda, args.gpu)
    model = nn.Sequential(nn.Embedding(70, 32), nn.Flatten(), nn.Linear(32 * 120, 4))
    if os.path.exists(args.weights):
        model.load_state_dict(torch.load(args.weights, map_location=device))
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.randint(0, 70, (512, 120)), torch.randint(0, 4, (512,)))
    for epoch in range(args.epochs):
        for chars, labels in DataLoader(data, batch_size=64, shuffle=True, pin_memory=device.type == "cuda"):
            chars, labels = chars.to(device), labels.to(device)
            loss = F.cross_entropy(model(chars), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())
    torch.save(model.state_dict(), args.weights)


if __name__ == "__main__":
    main()
