"""Resumable training: the checkpoint (saved with map_location-friendly CPU tensors) restores
model and optimizer, then training continues on the GPU."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

CKPT = "resume_demo.pt"


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    start = 0
    if os.path.exists(CKPT):
        state = torch.load(CKPT, map_location="cpu")
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])  # expect: DEV017
        start = state["epoch"] + 1
    model.to(device)
    for epoch in range(start, start + 3):
        x = torch.randn(64, 10, device=device)
        loss = F.mse_loss(model(x).squeeze(1), x.sum(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": epoch}, CKPT)


if __name__ == "__main__":
    main()
