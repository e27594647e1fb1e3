"""Mixture-of-experts layer with a learned router; the experts are kept in a Python list.

Thread: https://github.com/Zzh-tju/ultralytics-YOLOv3-Cluster-NMS/issues/6 (Expected all tensors to be
on the same device: parts of the model not moved); https://github.com/open-mmlab/mmaction2/issues/1456.
"""
import torch
import torch.nn as nn


class MoE(nn.Module):
    def __init__(self, d=32, n_exp=4):
        super().__init__()
        self.router = nn.Linear(d, n_exp)
        self.experts = [nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Linear(64, d)) for _ in range(n_exp)]  # expect: DEV009

    def forward(self, x):
        gate = self.router(x).softmax(-1)
        outs = torch.stack([e(x) for e in self.experts], -1)
        return (outs * gate.unsqueeze(-2)).sum(-1)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    moe = MoE().to(dev)
    print(moe(torch.randn(4, 32, device=dev)).shape, sum(p.numel() for p in moe.parameters()))
