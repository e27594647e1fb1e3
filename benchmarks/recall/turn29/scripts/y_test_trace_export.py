"""pytest suite for a TorchScript export helper (traced model must match eager outputs)."""
import io

import pytest
import torch
import torch.nn as nn


class Scorer(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def export_traced(model, example):
    model.eval()
    with torch.no_grad():
        traced = torch.jit.trace(model, example)
    buf = io.BytesIO()
    torch.jit.save(traced, buf)
    buf.seek(0)
    return torch.jit.load(buf, map_location=example.device)


@pytest.fixture
def model():
    torch.manual_seed(0)
    return Scorer()


def test_trace_matches_eager_cpu(model):
    x = torch.randn(4, 12)
    loaded = export_traced(model, x)
    torch.testing.assert_close(loaded(x), model(x))


def test_trace_batch_size_independent(model):
    loaded = export_traced(model, torch.randn(2, 12))
    assert loaded(torch.randn(7, 12)).shape == (7,)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_trace_on_gpu(model):
    model = model.cuda()
    x = torch.randn(3, 12, device="cuda")
    loaded = export_traced(model, x)
    torch.testing.assert_close(loaded(x), model(x))


def test_trace_half_precision(model):
    device = torch.device("cuda")  # expect: DEV022
    model = model.to(device).half()
    x = torch.randn(3, 12, device=device, dtype=torch.float16)
    loaded = export_traced(model, x)
    torch.testing.assert_close(loaded(x), model(x), atol=1e-2, rtol=1e-2)
