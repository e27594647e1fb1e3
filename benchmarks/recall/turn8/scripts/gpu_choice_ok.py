"""Picks the second GPU only when there are two, and otherwise the first or the CPU.

Look-alike of infer_set_device_1.py. Thread: https://github.com/LuyaooChen/uninformed-students-pytorch/issues/3
"""
import torch
import torch.nn as nn


def pick():
    if torch.cuda.device_count() > 1:
        return torch.device("cuda:1")
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


if __name__ == "__main__":
    device = pick()
    net = nn.Linear(8, 1).to(device)
    print(net(torch.randn(3, 8, device=device)).shape)
