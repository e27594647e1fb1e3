"""Single-level RetinaNet-style head for small aerial vehicle detection: anchors are built
once in __init__, box deltas decoded against them, then per-image NMS."""
import math

import torch
import torch.nn as nn


def make_anchors(feat_size, stride, sizes=(16, 24), ratios=(0.5, 1.0, 2.0)):
    base = []
    for s in sizes:
        for r in ratios:
            w, h = s * math.sqrt(r), s / math.sqrt(r)
            base.append([-w / 2, -h / 2, w / 2, h / 2])
    base = torch.tensor(base)
    shifts = torch.arange(feat_size, dtype=torch.float32) * stride + stride / 2
    sy, sx = torch.meshgrid(shifts, shifts, indexing="ij")
    shift = torch.stack([sx, sy, sx, sy], dim=-1).reshape(-1, 1, 4)
    return (shift + base[None]).reshape(-1, 4)


def decode(deltas, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    stds = 1.0 / torch.tensor(weights)  # expect: DEV006
    d = deltas * stds
    wa = anchors[:, 2] - anchors[:, 0]
    ha = anchors[:, 3] - anchors[:, 1]
    cxa = anchors[:, 0] + 0.5 * wa
    cya = anchors[:, 1] + 0.5 * ha
    cx = d[..., 0] * wa + cxa
    cy = d[..., 1] * ha + cya
    w = torch.exp(d[..., 2].clamp(max=4.0)) * wa
    h = torch.exp(d[..., 3].clamp(max=4.0)) * ha
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=-1)


def nms(boxes, scores, iou_thr=0.5):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        rest = boxes[order[1:]]
        lt = torch.maximum(boxes[i, :2], rest[:, :2])
        rb = torch.minimum(boxes[i, 2:], rest[:, 2:])
        inter = (rb - lt).clamp(min=0).prod(dim=1)
        area_i = (boxes[i, 2:] - boxes[i, :2]).prod()
        area_r = (rest[:, 2:] - rest[:, :2]).prod(dim=1)
        iou = inter / (area_i + area_r - inter)
        order = order[1:][iou <= iou_thr]
    return torch.stack(keep)


class AerialDetector(nn.Module):
    def __init__(self, num_classes=2, img_size=64, stride=8):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.num_anchors = 6
        self.num_classes = num_classes
        self.cls_head = nn.Conv2d(32, self.num_anchors * num_classes, 3, padding=1)
        self.box_head = nn.Conv2d(32, self.num_anchors * 4, 3, padding=1)
        self.anchors = make_anchors(img_size // stride, stride)  # expect: DEV010

    def forward(self, images):
        f = self.backbone(images)
        B = f.shape[0]
        cls = self.cls_head(f).permute(0, 2, 3, 1).reshape(B, -1, self.num_classes)
        box = self.box_head(f).permute(0, 2, 3, 1).reshape(B, -1, 4)
        return cls, box

    @torch.no_grad()
    def detect(self, images, score_thr=0.3):
        cls, box = self(images)
        boxes = decode(box, self.anchors)
        results = []
        for b in range(images.shape[0]):
            scores, labels = cls[b].sigmoid().max(dim=-1)
            m = scores > score_thr
            bb, ss, ll = boxes[b][m], scores[m], labels[m]
            if ss.numel() == 0:
                results.append((bb, ss, ll))
                continue
            keep = nms(bb, ss)
            results.append((bb[keep], ss[keep], ll[keep]))
        return results


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = AerialDetector().to(device).eval()
    images = torch.rand(2, 3, 64, 64, device=device)
    for i, (boxes, scores, labels) in enumerate(model.detect(images)):
        print(f"image {i}: {boxes.shape[0]} detections")


if __name__ == "__main__":
    main()
