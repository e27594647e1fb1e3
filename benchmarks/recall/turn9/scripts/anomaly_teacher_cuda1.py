"""Patch-level anomaly detection: a teacher network trained on normal patches, run on the second GPU
of the author's workstation when a GPU is present.

Thread: https://github.com/LuyaooChen/uninformed-students-pytorch/issues/3 (RuntimeError: CUDA error:
invalid device ordinal: device = torch.device('cuda:1') on a one-GPU machine).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    teacher = nn.Sequential(nn.Conv2d(3, 32, 4, 2, 1), nn.LeakyReLU(), nn.Conv2d(32, 64, 4, 2, 1), nn.AdaptiveAvgPool2d(1), nn.Flatten()).to(device)
    decoder = nn.Linear(64, 512).to(device)
    opt = torch.optim.Adam(list(teacher.parameters()) + list(decoder.parameters()), lr=2e-4)
    patches = TensorDataset(torch.rand(64, 3, 17, 17), torch.randn(64, 512))
    for x, target_feat in DataLoader(patches, batch_size=16, shuffle=True):
        x, target_feat = x.to(device), target_feat.to(device)
        loss = nn.functional.mse_loss(decoder(teacher(x)), target_feat)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
