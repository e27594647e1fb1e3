"""Unit tests for the captioning decoder (run with `python -m unittest` or pytest)."""
import unittest

import torch
import torch.nn as nn


class ShowAttendTell(nn.Module):
    """LSTM decoder with soft attention over a grid of image features."""

    def __init__(self, vocab, feat_dim=32, emb=16, hid=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.init_h = nn.Linear(feat_dim, hid)
        self.init_c = nn.Linear(feat_dim, hid)
        self.att_feat = nn.Linear(feat_dim, hid)
        self.att_hid = nn.Linear(hid, hid)
        self.att_out = nn.Linear(hid, 1)
        self.cell = nn.LSTMCell(emb + feat_dim, hid)
        self.fc = nn.Linear(hid, vocab)

    def forward(self, feats, captions):
        mean = feats.mean(1)
        h, c = self.init_h(mean), self.init_c(mean)
        logits, alphas = [], []
        for t in range(captions.size(1)):
            e = self.att_out(torch.tanh(self.att_feat(feats) + self.att_hid(h).unsqueeze(1))).squeeze(-1)
            alpha = e.softmax(-1)
            ctx = (alpha.unsqueeze(-1) * feats).sum(1)
            h, c = self.cell(torch.cat([self.embed(captions[:, t]), ctx], -1), (h, c))
            logits.append(self.fc(h))
            alphas.append(alpha)
        return torch.stack(logits, 1), torch.stack(alphas, 1)


class ShowAttendTellTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.model = ShowAttendTell(vocab=30)
        self.feats = torch.randn(2, 49, 32)
        self.captions = torch.randint(0, 30, (2, 7))

    def test_output_shapes(self):
        logits, alphas = self.model(self.feats, self.captions)
        self.assertEqual(tuple(logits.shape), (2, 7, 30))
        self.assertEqual(tuple(alphas.shape), (2, 7, 49))

    def test_attention_is_a_distribution(self):
        _, alphas = self.model(self.feats, self.captions)
        torch.testing.assert_close(alphas.sum(-1), torch.ones(2, 7))

    def test_gradients_reach_the_embedding(self):
        logits, _ = self.model(self.feats, self.captions)
        logits.sum().backward()
        self.assertIsNotNone(self.model.embed.weight.grad)

    def test_gpu_matches_cpu(self):
        device = torch.device("cuda")  # expect: DEV022
        expected, _ = self.model(self.feats, self.captions)
        model = self.model.to(device)
        got, _ = model(self.feats.to(device), self.captions.to(device))
        torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-5)


if __name__ == "__main__":
    unittest.main()
