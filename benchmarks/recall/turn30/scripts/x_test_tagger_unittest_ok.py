"""unittest suite for a convolutional sequence tagger; CUDA tests are skipped without a GPU."""
import unittest

import torch
from torch import nn


class ConvTagger(nn.Module):
    def __init__(self, vocab=100, dim=32, n_tags=5, pad_id=0):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.conv = nn.Conv1d(dim, dim, kernel_size=3, padding=1)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        h = torch.relu(self.conv(h)).transpose(1, 2)
        return self.out(h)


class ConvTaggerTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = ConvTagger().to(self.device).eval()
        self.tokens = torch.randint(1, 100, (4, 12), device=self.device)

    def test_output_shape(self):
        self.assertEqual(tuple(self.model(self.tokens).shape), (4, 12, 5))

    def test_batch_independence(self):
        full = self.model(self.tokens)
        torch.testing.assert_close(full[1:2], self.model(self.tokens[1:2]))

    @unittest.skipUnless(torch.cuda.is_available(), "CUDA not available")
    def test_half_precision_forward(self):
        model = ConvTagger().half().cuda().eval()
        out = model(self.tokens.cuda())
        self.assertEqual(out.dtype, torch.float16)
        self.assertTrue(torch.isfinite(out).all())

    @unittest.skipIf(not torch.cuda.is_available(), "CUDA not available")
    def test_cuda_matches_cpu(self):
        cpu_model = ConvTagger().eval()
        expected = cpu_model(self.tokens.cpu())
        got = cpu_model.to("cuda")(self.tokens.to("cuda")).cpu()
        torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    unittest.main()
