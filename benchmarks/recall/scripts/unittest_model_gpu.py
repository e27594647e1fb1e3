"""Unit tests for a GRU tagger, written on a workstation with a GPU."""
import unittest

import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, vocab=30, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, 16)
        self.gru = nn.GRU(16, 16, batch_first=True)
        self.out = nn.Linear(16, n_tags)

    def forward(self, tokens):
        h, _ = self.gru(self.emb(tokens))
        return self.out(h)


class TaggerTest(unittest.TestCase):
    def setUp(self):
        self.device = torch.device("cuda")  # expect: DEV001  # also: DEV022
        self.model = Tagger().to(self.device)
        self.tokens = torch.randint(0, 30, (2, 7), device=self.device)

    def test_shape(self):
        self.assertEqual(self.model(self.tokens).shape, (2, 7, 5))

    def test_random_input(self):
        out = self.model(torch.randint(0, 30, (4, 3)))  # expect: DEV006
        self.assertEqual(out.shape, (4, 3, 5))

    def test_loss_decreases(self):
        opt = torch.optim.SGD(self.model.parameters(), lr=0.5)
        tags = torch.randint(0, 5, (2, 7), device=self.device)
        losses = []
        for _ in range(5):
            loss = nn.functional.cross_entropy(self.model(self.tokens).reshape(-1, 5), tags.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        self.assertLess(losses[-1], losses[0])


if __name__ == "__main__":
    unittest.main()
