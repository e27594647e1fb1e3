"""unittest tests for a classifier-head swap helper; the GPU checks live in a TestCase
that is skipped on machines without CUDA."""
import unittest

import torch
import torch.nn as nn


def swap_head(model, num_classes):
    old = model.fc
    model.fc = nn.Linear(old.in_features, num_classes).to(device=old.weight.device, dtype=old.weight.dtype)
    return model


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
        self.fc = nn.Linear(16, 1000)

    def forward(self, x):
        return self.fc(self.body(x))


class SwapHeadCPUTest(unittest.TestCase):
    def test_output_width(self):
        model = swap_head(Backbone(), 7)
        self.assertEqual(model(torch.randn(2, 10)).shape, (2, 7))

    def test_keeps_dtype(self):
        model = swap_head(Backbone().double(), 3)
        self.assertEqual(model.fc.weight.dtype, torch.float64)


@unittest.skipUnless(torch.cuda.is_available(), "CUDA not available")
class SwapHeadCUDATest(unittest.TestCase):
    def setUp(self):
        self.model = Backbone().cuda()

    def test_new_head_on_gpu(self):
        swap_head(self.model, 5)
        self.assertTrue(self.model.fc.weight.is_cuda)

    def test_forward_on_gpu(self):
        swap_head(self.model, 5)
        out = self.model(torch.randn(4, 10, device="cuda"))
        self.assertEqual(out.device.type, "cuda")


if __name__ == "__main__":
    unittest.main()
