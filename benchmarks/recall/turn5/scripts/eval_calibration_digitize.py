"""Evaluate a trained classifier's calibration: expected calibration error from confidence bins,
plus a reliability diagram."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from torchvision.models import resnet18


def collect(model, loader, device):
    confs, hits = [], []
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            probs = model(images).softmax(-1)
            conf, pred = probs.max(-1)
            confs.append(conf)
            hits.append((pred == labels).float())
    return torch.cat(confs), torch.cat(hits)


def ece(confs, hits, n_bins=15):
    edges = np.linspace(0, 1, n_bins + 1)
    which = np.digitize(confs, edges[1:-1])  # expect: DEV011
    total, err, per_bin = len(confs), 0.0, []
    for b in range(n_bins):
        sel = which == b
        if sel.any():
            gap = abs(hits[sel].mean().item() - confs[sel].mean().item())
            err += sel.sum() / total * gap
            per_bin.append((b, hits[sel].mean().item()))
    return err, per_bin


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", required=True)
    parser.add_argument("--data", default="./data")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = resnet18(num_classes=10)
    model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    model.to(device)
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.49, 0.48, 0.45), (0.25, 0.24, 0.26))])
    loader = DataLoader(datasets.CIFAR10(args.data, train=False, download=True, transform=tf), batch_size=256)
    confs, hits = collect(model, loader, device)
    err, per_bin = ece(confs, hits)
    print(f"ECE {float(err):.4f}")
    xs, ys = zip(*per_bin)
    plt.bar(xs, ys)
    plt.savefig("reliability.png")


if __name__ == "__main__":
    main()
