"""Unit tests for the ConvLSTM cell and the forecaster built on it.

    pytest p_test_model_devices.py -q
"""
import pytest
import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, cin, hidden, k=3):
        super().__init__()
        self.hidden = hidden
        self.gates = nn.Conv2d(cin + hidden, 4 * hidden, k, padding=k // 2)

    def init_state(self, x):
        b, _, h, w = x.shape
        z = x.new_zeros(b, self.hidden, h, w)
        return z, z.clone()

    def forward(self, x, state=None):
        h, c = state if state is not None else self.init_state(x)
        i, f, o, g = self.gates(torch.cat([x, h], dim=1)).chunk(4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, (h, c)


class Forecaster(nn.Module):
    def __init__(self, cin=1, hidden=8):
        super().__init__()
        self.cell = ConvLSTMCell(cin, hidden)
        self.head = nn.Conv2d(hidden, cin, 1)

    def forward(self, seq):
        state = None
        for t in range(seq.shape[1]):
            h, state = self.cell(seq[:, t], state)
        return self.head(h)


@pytest.mark.parametrize("device", ["cpu", "cuda"])  # expect: DEV022
def test_cell_shapes(device):
    cell = ConvLSTMCell(2, 4).to(device)
    x = torch.randn(3, 2, 8, 8, device=device)
    h, (h2, c) = cell(x)
    assert h.shape == (3, 4, 8, 8)
    assert h.device.type == device
    assert torch.equal(h, h2)


def test_forecaster_cpu_backward():
    model = Forecaster()
    seq = torch.randn(2, 5, 1, 6, 6, requires_grad=True)
    model(seq).sum().backward()
    assert seq.grad is not None and seq.grad.abs().sum() > 0


def test_forecaster_matches_between_devices():
    torch.manual_seed(0)
    model = Forecaster().eval()
    seq = torch.randn(2, 4, 1, 6, 6)
    with torch.no_grad():
        ref = model(seq)
        out = model.cuda()(seq.cuda()).cpu()  # expect: DEV022
    torch.testing.assert_close(out, ref, atol=1e-5, rtol=1e-4)
