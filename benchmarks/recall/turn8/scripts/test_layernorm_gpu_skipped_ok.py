"""LayerNorm tests whose GPU case is skipped on machines without CUDA.

Look-alike of test_fused_layernorm_gpu.py. Thread: https://github.com/openvinotoolkit/nncf/pull/2605
"""
import pytest
import torch
import torch.nn as nn


def my_layernorm(x, w, b, eps=1e-5):
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, unbiased=False, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * w + b


def test_cpu():
    ln = nn.LayerNorm(8)
    x = torch.randn(4, 8)
    torch.testing.assert_close(my_layernorm(x, ln.weight, ln.bias), ln(x))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_gpu_half():
    ln = nn.LayerNorm(8).cuda().half()
    x = torch.randn(4, 8, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(my_layernorm(x, ln.weight, ln.bias), ln(x), atol=1e-2, rtol=1e-2)
