"""Unit tests for the box coder and anchor generator.

GPU tests are skipped on machines without CUDA (CI runners); run them on the
workstation with `pytest -m gpu`.
"""
import math
import unittest

import pytest
import torch

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def make_anchors(feat, stride, sizes, device=None):
    c = (torch.arange(feat, dtype=torch.float32, device=device) + 0.5) * stride
    cy, cx = torch.meshgrid(c, c, indexing="ij")
    out = [torch.stack([cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2], -1) for s in sizes]
    return torch.stack(out, 2).reshape(-1, 4)


class BoxCoder:
    def __init__(self, weights=(10.0, 10.0, 5.0, 5.0), clip=math.log(1000.0 / 16)):
        self.weights, self.clip = weights, clip

    def encode(self, gt, anchors):
        wx, wy, ww, wh = self.weights
        aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
        ax, ay = anchors[:, 0] + aw / 2, anchors[:, 1] + ah / 2
        gw, gh = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
        gx, gy = gt[:, 0] + gw / 2, gt[:, 1] + gh / 2
        return torch.stack([wx * (gx - ax) / aw, wy * (gy - ay) / ah,
                            ww * torch.log(gw / aw), wh * torch.log(gh / ah)], 1)

    def decode(self, deltas, anchors):
        wx, wy, ww, wh = self.weights
        aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
        ax, ay = anchors[:, 0] + aw / 2, anchors[:, 1] + ah / 2
        dx, dy = deltas[:, 0] / wx, deltas[:, 1] / wy
        dw = (deltas[:, 2] / ww).clamp(max=self.clip)
        dh = (deltas[:, 3] / wh).clamp(max=self.clip)
        x, y = ax + dx * aw, ay + dy * ah
        w, h = aw * torch.exp(dw), ah * torch.exp(dh)
        return torch.stack([x - w / 2, y - h / 2, x + w / 2, y + h / 2], 1)


def test_anchor_count_and_centers():
    a = make_anchors(4, 8, (8, 16))
    assert a.shape == (4 * 4 * 2, 4)
    centers = (a[:, :2] + a[:, 2:]) / 2
    assert torch.allclose(centers[0], torch.tensor([4.0, 4.0]))


def test_encode_decode_roundtrip():
    torch.manual_seed(0)
    coder = BoxCoder()
    anchors = make_anchors(4, 8, (8, 16))
    xy = torch.rand(len(anchors), 2) * 20
    gt = torch.cat([xy, xy + 4 + torch.rand(len(anchors), 2) * 20], 1)
    assert torch.allclose(coder.decode(coder.encode(gt, anchors), anchors), gt, atol=1e-4)


def test_decode_clamps_huge_deltas():
    anchors = make_anchors(1, 8, (8,))
    boxes = BoxCoder().decode(torch.tensor([[0.0, 0.0, 1e4, 1e4]]), anchors)
    assert torch.isfinite(boxes).all()


@requires_cuda
def test_decode_on_gpu_matches_cpu():
    torch.manual_seed(0)
    coder = BoxCoder()
    anchors = make_anchors(8, 8, (8, 16, 32))
    deltas = torch.randn(len(anchors), 4)
    expected = coder.decode(deltas, anchors)
    got = coder.decode(deltas.cuda(), anchors.cuda())
    assert got.is_cuda
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=requires_cuda)])
def test_anchors_follow_requested_device(device):
    a = make_anchors(2, 16, (16,), device=torch.device(device))
    assert a.device.type == device


@unittest.skipUnless(torch.cuda.is_available(), "CUDA not available")
class TestHalfPrecisionDecode(unittest.TestCase):
    def test_half_decode_close_to_float(self):
        anchors = make_anchors(4, 8, (8, 16)).cuda()
        deltas = torch.randn(len(anchors), 4, device="cuda") * 0.1
        full = BoxCoder().decode(deltas, anchors)
        half = BoxCoder().decode(deltas.half(), anchors.half()).float()
        self.assertLess((full - half).abs().max().item(), 0.5)


if __name__ == "__main__":
    unittest.main()
