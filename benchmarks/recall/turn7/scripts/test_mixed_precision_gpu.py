"""Unit tests for a small residual MLP; one test checks that autocast on the GPU matches float32
within tolerance."""
import torch
import torch.nn as nn


class ResMLP(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.fc1 = nn.Linear(d, d)
        self.fc2 = nn.Linear(d, d)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(x)))


def test_shape():
    model = ResMLP()
    assert model(torch.randn(3, 16)).shape == (3, 16)


def test_autocast_matches_fp32():
    torch.manual_seed(0)
    model = ResMLP().cuda()  # expect: DEV022
    x = torch.randn(8, 16, device="cuda")
    ref = model(x)
    with torch.autocast("cuda", dtype=torch.float16):
        out = model(x)
    assert torch.allclose(out.float(), ref, atol=1e-2)
