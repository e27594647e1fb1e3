"""unittest suite for a small causal self-attention block.

Written from "GPU tests fail when CUDA is not available, instead of being
skipped" (sbi-dev/sbi#1093), "Skip gpu-only tests if cuda is not available"
(IDEA-Research/detrex#355) and "Make test_fwbw* explicitly require CUDA"
(facebookresearch/xformers#1385): one GPU test is guarded, two others call
into CUDA unconditionally and error out on CPU-only CI runners.
"""
import math
import unittest

import torch
import torch.nn as nn
import torch.nn.functional as F


def causal_mask(size, device=None):
    return torch.triu(torch.ones(size, size, dtype=torch.bool, device=device), diagonal=1)


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        att = att.masked_fill(causal_mask(t, device=x.device), float("-inf"))
        out = F.softmax(att, dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(b, t, d))


class CausalSelfAttentionTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.block = CausalSelfAttention(16, 4).eval()

    def test_output_shape(self):
        x = torch.randn(2, 5, 16)
        self.assertEqual(self.block(x).shape, (2, 5, 16))

    def test_is_causal(self):
        x = torch.randn(1, 6, 16)
        y = x.clone()
        y[:, -1] += 1.0
        with torch.no_grad():
            torch.testing.assert_close(self.block(x)[:, :-1], self.block(y)[:, :-1])

    def test_gpu_matches_cpu(self):
        x = torch.randn(2, 7, 16)
        with torch.no_grad():
            ref = self.block(x)
            out = self.block.to("cuda")(x.to("cuda"))  # expect: DEV022
        torch.testing.assert_close(out.cpu(), ref, atol=1e-5, rtol=1e-4)

    def test_mask_on_requested_device(self):
        mask = causal_mask(4, device=torch.device("cuda"))  # expect: DEV022
        self.assertEqual(mask.device.type, "cuda")
        self.assertFalse(mask.diagonal().any())

    @unittest.skipUnless(torch.cuda.is_available(), "needs a CUDA device")
    def test_half_precision_on_gpu(self):
        block = self.block.cuda().half()
        x = torch.randn(2, 5, 16, device="cuda", dtype=torch.half)
        with torch.no_grad():
            self.assertFalse(torch.isnan(block(x)).any())


if __name__ == "__main__":
    unittest.main()
