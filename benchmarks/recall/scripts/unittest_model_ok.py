"""Unit tests for a small classifier; the GPU test is skipped on machines without CUDA."""
import unittest

import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, d_in=10, n_classes=4):
        super().__init__()
        self.fc = nn.Linear(d_in, n_classes)
        self.register_buffer("temperature", torch.ones(n_classes))

    def forward(self, x):
        return self.fc(x) / self.temperature


class ClassifierTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = Classifier().to(self.device)

    def test_output_shape(self):
        x = torch.randn(5, 10, device=self.device)
        self.assertEqual(self.model(x).shape, (5, 4))

    def test_backward_reaches_all_parameters(self):
        x = torch.randn(3, 10).to(self.device)
        self.model(x).sum().backward()
        for name, p in self.model.named_parameters():
            self.assertIsNotNone(p.grad, name)

    @unittest.skipUnless(torch.cuda.is_available(), "needs a GPU")
    def test_cuda_matches_cpu(self):
        cpu_model = Classifier()
        gpu_model = Classifier().cuda()
        gpu_model.load_state_dict(cpu_model.state_dict())
        x = torch.randn(2, 10)
        torch.testing.assert_close(cpu_model(x), gpu_model(x.to("cuda")).cpu())


if __name__ == "__main__":
    unittest.main()
