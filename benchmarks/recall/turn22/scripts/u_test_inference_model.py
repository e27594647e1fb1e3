"""pytest suite for the deployed classifier: shapes, determinism in eval mode, the
half-precision path used by the GPU server, and a CPU/GPU agreement check."""
import os

import pytest
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, n_in=10, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Dropout(0.3),
                                 nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


@pytest.fixture
def model():
    torch.manual_seed(0)
    return Classifier().eval()


def test_output_shape(model):
    out = model(torch.randn(7, 10))
    assert out.shape == (7, 3)


def test_eval_is_deterministic(model):
    x = torch.randn(4, 10)
    with torch.no_grad():
        assert torch.equal(model(x), model(x))


def test_half_precision_server_path(model):
    gpu_model = model.half().cuda()  # expect: DEV022
    x = torch.randn(4, 10, dtype=torch.float16, device=gpu_model.net[0].weight.device)
    with torch.no_grad():
        out = gpu_model(x)
    assert out.dtype == torch.float16
    assert torch.isfinite(out).all()


@pytest.mark.skipif(os.environ.get("CI") == "true", reason="no GPU runners in CI")
def test_cpu_gpu_agree(model):
    x = torch.randn(5, 10)
    with torch.no_grad():
        ref = model(x)
        gpu_out = model.to("cuda")(x.to("cuda"))  # expect: DEV022
    torch.testing.assert_close(gpu_out.cpu(), ref, rtol=1e-4, atol=1e-4)
