"""pytest suite for the box utilities used by the detector and the tracker."""
import pytest
import torch


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.maximum(a[:, None, :2], b[None, :, :2])
    rb = torch.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(dim=-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def xywh_to_xyxy(boxes):
    xy, wh = boxes[:, :2], boxes[:, 2:]
    return torch.cat([xy - wh / 2, xy + wh / 2], dim=1)


def greedy_nms(boxes, scores, thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel():
        i = order[0]
        keep.append(int(i))
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i:i + 1], boxes[order[1:]])[0]
        order = order[1:][ious <= thr]
    return keep


def test_iou_identity():
    b = torch.tensor([[0.0, 0.0, 10.0, 10.0], [5.0, 5.0, 15.0, 15.0]])
    iou = box_iou(b, b)
    assert torch.allclose(iou.diag(), torch.ones(2))
    assert iou[0, 1].item() == pytest.approx(25 / 175)


def test_xywh_roundtrip():
    b = torch.tensor([[5.0, 5.0, 10.0, 4.0]])
    assert xywh_to_xyxy(b).tolist() == [[0.0, 3.0, 10.0, 7.0]]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_iou_on_gpu_matches_cpu():
    a = torch.rand(6, 2) * 10
    b = torch.cat([a, a + 5], dim=1)
    assert torch.allclose(box_iou(b, b).cpu(), box_iou(b.cuda(), b.cuda()).cpu(), atol=1e-6)


def test_nms_on_device_keeps_best():
    boxes = torch.tensor([[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 10.0, 10.0], [20.0, 20.0, 30.0, 30.0]]).cuda()  # expect: DEV022
    scores = torch.tensor([0.9, 0.8, 0.7], device=boxes.device)
    assert greedy_nms(boxes, scores, 0.5) == [0, 2]
