"""Regression evaluation that collects absolute errors per batch and plots their distribution.

Thread: https://github.com/JDAI-CV/fast-reid/pull/509 (distmat.numpy() on a CUDA tensor in a
visualisation script); https://github.com/amirgholami/TRAttack/pull/3 (add cpu(), fix can't convert bug).
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    reg = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
    dl = DataLoader(TensorDataset(torch.randn(256, 6), torch.randn(256, 1)), batch_size=64)
    errs = []
    reg.eval()
    with torch.no_grad():
        for feats, target in dl:
            feats, target = feats.to(device), target.to(device)
            errs.append((reg(feats) - target).abs().squeeze(1))
    all_err = torch.cat(errs)
    plt.hist(all_err, bins=30)  # expect: DEV011
    plt.savefig("abs_err.png")


if __name__ == "__main__":
    main()
