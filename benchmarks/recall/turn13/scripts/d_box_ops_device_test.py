"""Device-parametrised tests for NMS and anchor generation helpers, skipping CUDA cases on CPU-only CI.

Correct look-alike written from "GPU tests fail when CUDA is not available, instead of being
skipped" (sbi #1093), "test: skip GPU tests when CUDA is unavailable" and the pytensor review
("Only want to skip on the GPU parametrization"): the CUDA parameter carries a skip mark, the
unittest case uses skipUnless, and helpers build their tensors on the device of their inputs.
"""
import unittest

import pytest
import torch

DEVICES = [
    "cpu",
    pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(),
                                                  reason="CUDA not available")),
]


def grid_anchors(feat_h, feat_w, stride, sizes, device):
    ys = (torch.arange(feat_h, device=device, dtype=torch.float32) + 0.5) * stride
    xs = (torch.arange(feat_w, device=device, dtype=torch.float32) + 0.5) * stride
    cy, cx = torch.meshgrid(ys, xs, indexing="ij")
    half = torch.as_tensor(sizes, dtype=torch.float32, device=device) / 2
    centers = torch.stack([cx, cy], -1).reshape(-1, 1, 2)
    return torch.cat([centers - half[:, None], centers + half[:, None]], -1).reshape(-1, 4)


def nms(boxes, scores, iou_thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        rest = boxes[order[1:]]
        lt = torch.max(boxes[i, :2], rest[:, :2])
        rb = torch.min(boxes[i, 2:], rest[:, 2:])
        inter = (rb - lt).clamp(min=0).prod(-1)
        area_i = (boxes[i, 2:] - boxes[i, :2]).prod()
        area_r = (rest[:, 2:] - rest[:, :2]).prod(-1)
        iou = inter / (area_i + area_r - inter)
        order = order[1:][iou <= iou_thr]
    return torch.stack(keep) if keep else torch.empty(0, dtype=torch.long, device=boxes.device)


@pytest.mark.parametrize("device", DEVICES)
def test_grid_anchor_count_and_device(device):
    anchors = grid_anchors(4, 5, 8, [16, 32], device)
    assert anchors.shape == (4 * 5 * 2, 4)
    assert anchors.device.type == device


@pytest.mark.parametrize("device", DEVICES)
def test_nms_suppresses_overlaps(device):
    boxes = torch.tensor([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60]],
                         dtype=torch.float32, device=device)
    scores = torch.tensor([0.9, 0.8, 0.7], device=device)
    keep = nms(boxes, scores, 0.5)
    assert keep.tolist() == [0, 2]


class NmsGpuConsistency(unittest.TestCase):
    @unittest.skipUnless(torch.cuda.is_available(), "needs a CUDA device")
    def test_same_result_on_gpu(self):
        g = torch.Generator().manual_seed(0)
        xy = torch.rand(40, 2, generator=g) * 50
        boxes = torch.cat([xy, xy + 12], 1)
        scores = torch.rand(40, generator=g)
        cpu_keep = nms(boxes, scores, 0.4)
        gpu_keep = nms(boxes.cuda(), scores.cuda(), 0.4).cpu()
        self.assertEqual(cpu_keep.tolist(), gpu_keep.tolist())


if __name__ == "__main__":
    unittest.main()
