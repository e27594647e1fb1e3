"""Tests for the scatter-mean and segment-softmax helpers of the GNN code, on CPU and, when present, CUDA.

    pytest -q f_scatter_ops_test.py
"""
import unittest

import pytest
import torch

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA not available")
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def scatter_mean(src, index, dim_size):
    out = src.new_zeros(dim_size, src.size(1)).index_add_(0, index, src)
    count = src.new_zeros(dim_size).index_add_(0, index, src.new_ones(index.numel()))
    return out / count.clamp(min=1).unsqueeze(1)


def segment_softmax(scores, index, dim_size):
    seg_max = scores.new_full((dim_size,), float("-inf")).scatter_reduce(0, index, scores, reduce="amax")
    exp = (scores - seg_max[index]).exp()
    denom = scores.new_zeros(dim_size).index_add_(0, index, exp)
    return exp / denom[index]


@pytest.mark.parametrize("device", DEVICES)
def test_scatter_mean_matches_loop(device):
    src = torch.randn(10, 3, device=device)
    index = torch.tensor([0, 1, 1, 2, 2, 2, 0, 3, 3, 1], device=device)
    out = scatter_mean(src, index, 5)
    for node in range(4):
        torch.testing.assert_close(out[node], src[index == node].mean(0))
    assert torch.all(out[4] == 0)


@pytest.mark.parametrize("device", DEVICES)
def test_segment_softmax_sums_to_one(device):
    scores = torch.randn(12, device=device)
    index = torch.randint(0, 4, (12,), device=device)
    probs = segment_softmax(scores, index, 4)
    sums = torch.zeros(4, device=device).index_add_(0, index, probs)
    present = torch.bincount(index, minlength=4) > 0
    torch.testing.assert_close(sums[present], torch.ones(int(present.sum()), device=device))


@requires_cuda
def test_scatter_mean_cpu_gpu_agree():
    src, index = torch.randn(50, 8), torch.randint(0, 7, (50,))
    expected = scatter_mean(src, index, 7)
    got = scatter_mean(src.cuda(), index.cuda(), 7)
    torch.testing.assert_close(got.cpu(), expected)


class SegmentSoftmaxCudaTest(unittest.TestCase):
    @unittest.skipUnless(torch.cuda.is_available(), "needs a GPU")
    def test_large_segments_on_gpu(self):
        device = torch.device("cuda")
        scores = torch.randn(10_000, device=device)
        index = torch.randint(0, 100, (10_000,), device=device)
        probs = segment_softmax(scores, index, 100)
        self.assertTrue(torch.isfinite(probs).all().item())
        self.assertAlmostEqual(probs.sum().item(), float(index.unique().numel()), places=2)


if __name__ == "__main__":
    unittest.main()
