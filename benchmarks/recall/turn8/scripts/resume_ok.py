"""Resume done in the right order: model moved, optimizer built and its state loaded afterwards,
the checkpoint read with map_location.

Look-alike of resume_adamw_state_then_cuda.py and infer_weights_no_map_location.py.
Thread: https://github.com/Lightning-AI/pytorch-lightning/issues/19225
"""
import os

import torch
import torch.nn as nn

CKPT = "seg_last_ok.pt"


def main():
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1)).to(dev)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
    if os.path.exists(CKPT):
        state = torch.load(CKPT, map_location=dev)
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
    img = torch.randn(4, 3, 16, 16, device=dev)
    loss = nn.functional.cross_entropy(net(img), torch.randint(0, 2, (4, 16, 16), device=dev))
    loss.backward()
    opt.step()
    torch.save({"net": net.state_dict(), "opt": opt.state_dict()}, CKPT)


if __name__ == "__main__":
    main()
