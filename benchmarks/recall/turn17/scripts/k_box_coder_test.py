"""Tests for the box encoder/decoder and IoU helper of the detector."""
import math

import pytest
import torch

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def encode(gt, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    wx, wy, ww, wh = weights
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = anchors[:, 0] + aw / 2, anchors[:, 1] + ah / 2
    gw, gh = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
    gx, gy = gt[:, 0] + gw / 2, gt[:, 1] + gh / 2
    return torch.stack([wx * (gx - ax) / aw, wy * (gy - ay) / ah,
                        ww * torch.log(gw / aw), wh * torch.log(gh / ah)], dim=1)


def decode(deltas, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    wx, wy, ww, wh = weights
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = anchors[:, 0] + aw / 2, anchors[:, 1] + ah / 2
    cx = deltas[:, 0] / wx * aw + ax
    cy = deltas[:, 1] / wy * ah + ay
    w = torch.exp((deltas[:, 2] / ww).clamp(max=math.log(1000 / 16))) * aw
    h = torch.exp((deltas[:, 3] / wh).clamp(max=math.log(1000 / 16))) * ah
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=1)


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None] - inter)


def random_boxes(n, device="cpu", seed=0):
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(n, 2, generator=g) * 50
    wh = torch.rand(n, 2, generator=g) * 30 + 2
    return torch.cat([xy, xy + wh], dim=1).to(device)


def test_roundtrip_cpu():
    anchors, gt = random_boxes(32, seed=1), random_boxes(32, seed=2)
    torch.testing.assert_close(decode(encode(gt, anchors), anchors), gt, rtol=1e-4, atol=1e-4)


def test_identical_boxes_have_iou_one():
    b = random_boxes(5)
    torch.testing.assert_close(box_iou(b, b).diagonal(), torch.ones(5))


def test_disjoint_boxes_have_iou_zero():
    a = torch.tensor([[0.0, 0.0, 1.0, 1.0]])
    b = torch.tensor([[2.0, 2.0, 3.0, 3.0]])
    assert box_iou(a, b).item() == 0.0


@requires_cuda
def test_roundtrip_cuda_matches_cpu():
    anchors, gt = random_boxes(64, seed=3), random_boxes(64, seed=4)
    ref = encode(gt, anchors)
    out = encode(gt.cuda(), anchors.cuda())
    torch.testing.assert_close(out.cpu(), ref, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(decode(out, anchors.cuda()).cpu(), gt, rtol=1e-4, atol=1e-4)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_iou_on_device():
    a = random_boxes(8, device="cuda", seed=5)
    assert box_iou(a, a).device.type == "cuda"
