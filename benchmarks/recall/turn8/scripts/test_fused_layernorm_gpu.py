"""Unit tests for a LayerNorm re-implementation; one compares it with torch on the GPU.

Thread: https://github.com/openvinotoolkit/nncf/pull/2242 ([Torch] Skip cuda test if cuda is not
available: CPU pre-commit failing); https://github.com/meta-pytorch/torchrec/pull/3385.
"""
import unittest

import torch
import torch.nn as nn


def my_layernorm(x, w, b, eps=1e-5):
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, unbiased=False, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * w + b


class LayerNormTest(unittest.TestCase):
    def test_matches_torch_cpu(self):
        ln = nn.LayerNorm(8)
        x = torch.randn(4, 8)
        torch.testing.assert_close(my_layernorm(x, ln.weight, ln.bias), ln(x))

    def test_matches_torch_half_gpu(self):
        ln = nn.LayerNorm(8).to("cuda").half()  # expect: DEV022
        x = torch.randn(4, 8, device="cuda", dtype=torch.float16)
        torch.testing.assert_close(my_layernorm(x, ln.weight, ln.bias), ln(x), atol=1e-2, rtol=1e-2)


if __name__ == "__main__":
    unittest.main()
