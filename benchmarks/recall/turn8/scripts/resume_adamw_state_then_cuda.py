"""Segmentation training that resumes from its last checkpoint: the resume helper restores model
and optimizer, and the model is put on the GPU afterwards.

Thread: https://github.com/kohya-ss/sd-scripts/issues/1944 (At resuming: Expected all tensors to be
on the same device, cuda:0 and cpu); https://github.com/Lightning-AI/pytorch-lightning/issues/19225.
"""
import os

import torch
import torch.nn as nn

CKPT = "seg_last.pt"


def main():
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1))
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
    start = 0
    if os.path.exists(CKPT):
        state = torch.load(CKPT, map_location="cpu")
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])  # expect: DEV017
        start = state["epoch"] + 1
    if torch.cuda.is_available():
        net.cuda()
    dev = next(net.parameters()).device
    for epoch in range(start, start + 2):
        img = torch.randn(4, 3, 16, 16, device=dev)
        mask = torch.randint(0, 2, (4, 16, 16), device=dev)
        loss = nn.functional.cross_entropy(net(img), mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "epoch": epoch}, CKPT)


if __name__ == "__main__":
    main()
