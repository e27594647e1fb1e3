"""Unit tests for a small attention block, including a CUDA/CPU parity check."""
import unittest

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x, key_padding_mask=None):
        return self.mha(x, x, x, key_padding_mask=key_padding_mask, need_weights=False)[0]


class AttentionTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.model = Attention().eval()

    def test_shape(self):
        x = torch.randn(2, 5, 32)
        self.assertEqual(self.model(x).shape, (2, 5, 32))

    def test_padding_mask_ignored_positions(self):
        x = torch.randn(1, 4, 32)
        mask = torch.tensor([[False, False, True, True]])
        out1 = self.model(x, mask)
        x[:, 2:] = 100.0
        out2 = self.model(x, mask)
        torch.testing.assert_close(out1[:, :2], out2[:, :2])

    def test_cuda_matches_cpu(self):
        x = torch.randn(2, 6, 32)
        expected = self.model(x)
        gpu_model = self.model.cuda()  # expect: DEV022
        torch.testing.assert_close(gpu_model(x.cuda()).cpu(), expected, rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    unittest.main()
