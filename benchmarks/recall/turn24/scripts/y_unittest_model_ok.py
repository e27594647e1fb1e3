"""unittest suite for a GRU encoder; the GPU tests skip themselves on CPU-only machines.

run: python y_unittest_model_ok.py
"""
import unittest

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class GRUEncoder(nn.Module):
    def __init__(self, vocab=30, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)

    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return h[-1]


class GRUEncoderTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.model = GRUEncoder()
        self.ids = torch.randint(1, 30, (3, 7))
        self.lengths = torch.tensor([7, 4, 2])
        for row, L in enumerate(self.lengths.tolist()):
            self.ids[row, L:] = 0

    def test_shape(self):
        self.assertEqual(tuple(self.model(self.ids, self.lengths).shape), (3, 16))

    def test_padding_does_not_change_output(self):
        ids2 = self.ids.clone()
        ids2[2, 2:] = 5
        self.assertTrue(torch.allclose(self.model(self.ids, self.lengths), self.model(ids2, self.lengths)))

    @unittest.skipUnless(torch.cuda.is_available(), "CUDA not available")
    def test_cuda_forward(self):
        model = self.model.cuda()
        out = model(self.ids.cuda(), self.lengths.cuda())
        self.assertEqual(out.device.type, "cuda")

    def test_device_follows_model(self):
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = self.model.to(device)
        out = model(self.ids.to(device), self.lengths)
        self.assertEqual(out.device, next(model.parameters()).device)


class HalfPrecisionTest(unittest.TestCase):
    def setUp(self):
        if not torch.cuda.is_available():
            self.skipTest("half-precision GRU needs CUDA")
        self.device = torch.device("cuda:0")

    def test_half_runs(self):
        model = GRUEncoder().to(self.device).half()
        ids = torch.randint(1, 30, (2, 5), device=self.device)
        out = model(ids, torch.tensor([5, 3]))
        self.assertEqual(out.dtype, torch.float16)


if __name__ == "__main__":
    unittest.main()
