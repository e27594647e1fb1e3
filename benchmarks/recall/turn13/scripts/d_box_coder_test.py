"""Unit tests for a Faster R-CNN style box coder (encode/decode of anchor deltas) and an IoU helper.

From "GPU tests fail when CUDA is not available, instead of being skipped" (sbi #1093, xformers
"Make test_fwbw* explicitly require CUDA", pytensor "We need to skip the gpu parametrizations when
cuda is not available"): one test carries the skip marker, its neighbour calls `.cuda()` without it
and fails with "Torch not compiled with CUDA enabled" on CPU-only CI.
"""
import math

import pytest
import torch


class BoxCoder:
    def __init__(self, weights=(10.0, 10.0, 5.0, 5.0), clip=math.log(1000.0 / 16)):
        self.weights, self.clip = weights, clip

    def encode(self, gt, anchors):
        aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
        ax, ay = anchors[:, 0] + 0.5 * aw, anchors[:, 1] + 0.5 * ah
        gw, gh = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
        gx, gy = gt[:, 0] + 0.5 * gw, gt[:, 1] + 0.5 * gh
        wx, wy, ww, wh = self.weights
        return torch.stack([wx * (gx - ax) / aw, wy * (gy - ay) / ah,
                            ww * torch.log(gw / aw), wh * torch.log(gh / ah)], dim=1)

    def decode(self, deltas, anchors):
        aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
        ax, ay = anchors[:, 0] + 0.5 * aw, anchors[:, 1] + 0.5 * ah
        wx, wy, ww, wh = self.weights
        dx, dy = deltas[:, 0] / wx, deltas[:, 1] / wy
        dw = (deltas[:, 2] / ww).clamp(max=self.clip)
        dh = (deltas[:, 3] / wh).clamp(max=self.clip)
        cx, cy = dx * aw + ax, dy * ah + ay
        w, h = torch.exp(dw) * aw, torch.exp(dh) * ah
        return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=1)


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])  # noqa: E731
    return inter / (area(a)[:, None] + area(b)[None] - inter)


def random_boxes(n, seed):
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(n, 2, generator=g) * 100
    wh = torch.rand(n, 2, generator=g) * 40 + 4
    return torch.cat([xy, xy + wh], dim=1)


def test_roundtrip_cpu():
    coder, anchors, gt = BoxCoder(), random_boxes(64, 0), random_boxes(64, 1)
    torch.testing.assert_close(coder.decode(coder.encode(gt, anchors), anchors), gt,
                               rtol=1e-4, atol=1e-3)


def test_iou_identity():
    boxes = random_boxes(10, 2)
    torch.testing.assert_close(box_iou(boxes, boxes).diagonal(), torch.ones(10))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA not available")
def test_decode_matches_on_gpu():
    coder, anchors, gt = BoxCoder(), random_boxes(32, 3), random_boxes(32, 4)
    deltas = coder.encode(gt, anchors)
    on_gpu = coder.decode(deltas.cuda(), anchors.cuda()).cpu()
    torch.testing.assert_close(on_gpu, coder.decode(deltas, anchors), rtol=1e-4, atol=1e-3)


def test_iou_on_gpu_matches_cpu():
    a, b = random_boxes(16, 5), random_boxes(8, 6)
    gpu = box_iou(a.cuda(), b.cuda()).cpu()  # expect: DEV022
    torch.testing.assert_close(gpu, box_iou(a, b))
