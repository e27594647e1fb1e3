"""Additive-margin softmax where each class has its own margin, stored on the loss module and
looked up with the batch labels.

Thread: https://github.com/aassxun/SEMICON/issues/2 (indices should be either on cpu or on the
same device as the indexed tensor (cpu), inside a criterion); https://github.com/cxliu0/PET/issues/4.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PerClassMarginLoss(nn.Module):
    def __init__(self, counts, scale=16.0):
        super().__init__()
        c = torch.tensor(counts, dtype=torch.float32)
        self.margins = 0.5 / c.pow(0.25)  # expect: DEV010
        self.scale = scale

    def forward(self, cosine, target):
        m = self.margins[target]
        adjusted = cosine.clone()
        adjusted[torch.arange(len(target), device=cosine.device), target] -= m
        return F.cross_entropy(self.scale * adjusted, target)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    proto = nn.Linear(32, 5, bias=False).to(device)
    crit = PerClassMarginLoss([500, 200, 80, 30, 10]).to(device)
    x, y = torch.randn(64, 32).to(device), torch.randint(0, 5, (64,)).to(device)
    cos = F.normalize(x) @ F.normalize(proto.weight).t()
    print(crit(cos, y).item())


if __name__ == "__main__":
    main()
