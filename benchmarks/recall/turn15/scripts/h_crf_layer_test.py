"""Tests for the linear-chain CRF layer.

    pytest -q h_crf_layer_test.py
"""
import itertools
import unittest

import pytest
import torch
import torch.nn as nn


class LinearChainCRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.start = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.end = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.trans = nn.Parameter(torch.randn(num_tags, num_tags) * 0.1)

    def score(self, emissions, tags, mask):
        B, L, _ = emissions.shape
        bidx = torch.arange(B, device=emissions.device)
        s = self.start[tags[:, 0]] + emissions[bidx, 0, tags[:, 0]]
        for i in range(1, L):
            step = self.trans[tags[:, i - 1], tags[:, i]] + emissions[bidx, i, tags[:, i]]
            s = s + step * mask[:, i].to(emissions.dtype)
        last = tags.gather(1, (mask.sum(1, keepdim=True) - 1).long()).squeeze(1)
        return s + self.end[last]

    def log_partition(self, emissions, mask):
        alpha = self.start + emissions[:, 0]
        for i in range(1, emissions.size(1)):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + self.trans + emissions[:, i].unsqueeze(1), 1)
            alpha = torch.where(mask[:, i, None], nxt, alpha)
        return torch.logsumexp(alpha + self.end, 1)

    def forward(self, emissions, tags, mask):
        return self.score(emissions, tags, mask) - self.log_partition(emissions, mask)


def brute_force_log_partition(crf, emissions, length):
    T = emissions.size(-1)
    scores = []
    for path in itertools.product(range(T), repeat=length):
        tags = torch.tensor([path])
        mask = torch.ones(1, length, dtype=torch.bool)
        scores.append(crf.score(emissions[:, :length], tags, mask))
    return torch.logsumexp(torch.cat(scores), 0)


@pytest.fixture
def crf():
    torch.manual_seed(0)
    return LinearChainCRF(3)


def test_log_partition_matches_brute_force(crf):
    em = torch.randn(1, 4, 3)
    mask = torch.ones(1, 4, dtype=torch.bool)
    assert torch.allclose(crf.log_partition(em, mask)[0], brute_force_log_partition(crf, em, 4), atol=1e-5)


def test_padding_is_ignored(crf):
    em = torch.randn(1, 5, 3)
    tags = torch.tensor([[0, 2, 1, 0, 0]])
    mask = torch.tensor([[1, 1, 1, 0, 0]], dtype=torch.bool)
    full = crf(em, tags, mask)
    cut = crf(em[:, :3], tags[:, :3], mask[:, :3])
    assert torch.allclose(full, cut, atol=1e-6)


def test_log_likelihood_is_negative(crf):
    em = torch.randn(4, 6, 3)
    tags = torch.randint(0, 3, (4, 6))
    mask = torch.ones(4, 6, dtype=torch.bool)
    assert (crf(em, tags, mask) <= 0).all()


def test_gpu_matches_cpu(crf):
    em = torch.randn(2, 5, 3)
    tags = torch.randint(0, 3, (2, 5))
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], dtype=torch.bool)
    expected = crf(em, tags, mask)
    crf_gpu = crf.cuda()  # expect: DEV022
    got = crf_gpu(em.cuda(), tags.cuda(), mask.cuda())
    assert torch.allclose(got.cpu(), expected, atol=1e-5)


class TestMixedPrecision(unittest.TestCase):
    def test_half_emissions_under_autocast(self):
        torch.manual_seed(1)
        crf = LinearChainCRF(4)
        em = torch.randn(3, 7, 4).cuda()  # expect: DEV022
        tags = torch.randint(0, 4, (3, 7), device=em.device)
        mask = torch.ones(3, 7, dtype=torch.bool, device=em.device)
        crf.to(em.device)
        with torch.autocast("cuda", dtype=torch.float16):
            llh = crf(em.half(), tags, mask)
        self.assertTrue(torch.isfinite(llh).all())


if __name__ == "__main__":
    unittest.main()
