"""pytest suite for box encoding / decoding and IoU helpers used by a detector."""
import pytest
import torch


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def encode(boxes, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = anchors[:, 0] + 0.5 * aw, anchors[:, 1] + 0.5 * ah
    bw, bh = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    bx, by = boxes[:, 0] + 0.5 * bw, boxes[:, 1] + 0.5 * bh
    wx, wy, ww, wh = weights
    return torch.stack([wx * (bx - ax) / aw, wy * (by - ay) / ah, ww * torch.log(bw / aw), wh * torch.log(bh / ah)], 1)


def decode(deltas, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = anchors[:, 0] + 0.5 * aw, anchors[:, 1] + 0.5 * ah
    wx, wy, ww, wh = weights
    cx = deltas[:, 0] / wx * aw + ax
    cy = deltas[:, 1] / wy * ah + ay
    w = torch.exp(deltas[:, 2] / ww) * aw
    h = torch.exp(deltas[:, 3] / wh) * ah
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)


@pytest.fixture
def anchors():
    return torch.tensor([[0.0, 0.0, 10.0, 10.0], [5.0, 5.0, 25.0, 15.0], [2.0, 3.0, 8.0, 13.0]])


def test_iou_identity(anchors):
    iou = box_iou(anchors, anchors)
    torch.testing.assert_close(iou.diag(), torch.ones(3))


def test_iou_disjoint():
    a = torch.tensor([[0.0, 0.0, 1.0, 1.0]])
    b = torch.tensor([[2.0, 2.0, 3.0, 3.0]])
    assert box_iou(a, b).item() == 0.0


def test_encode_decode_roundtrip(anchors):
    boxes = anchors + torch.tensor([1.0, -1.0, 2.0, 0.5])
    torch.testing.assert_close(decode(encode(boxes, anchors), anchors), boxes)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_roundtrip_on_gpu(anchors):
    anchors = anchors.cuda()
    boxes = anchors + 1.0
    torch.testing.assert_close(decode(encode(boxes, anchors), anchors), boxes)


def test_decode_half_precision_matches_float(anchors):
    deltas = torch.randn(3, 4, device="cuda") * 0.1  # expect: DEV022
    anchors = anchors.to(deltas.device)
    full = decode(deltas, anchors)
    half = decode(deltas.half(), anchors.half()).float()
    torch.testing.assert_close(half, full, atol=1e-1, rtol=1e-2)
