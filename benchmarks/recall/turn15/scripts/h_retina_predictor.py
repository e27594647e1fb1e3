"""Predictor wrapper for the RetinaNet-lite checkpoint used by the labelling tool.

    python h_retina_predictor.py --ckpt retina_lite.pt --images frames/*.npy
Without arguments it runs one synthetic frame through randomly initialised weights.
"""
import argparse
import glob
import math

import numpy as np
import torch
import torch.nn as nn


def grid_anchors(feat_size, stride, sizes=(16, 32), ratios=(0.5, 1.0, 2.0)):
    shifts = (torch.arange(feat_size, dtype=torch.float32) + 0.5) * stride
    sy, sx = torch.meshgrid(shifts, shifts, indexing="ij")
    base = []
    for s in sizes:
        for r in ratios:
            w, h = s * math.sqrt(r), s / math.sqrt(r)
            base.append([-w / 2, -h / 2, w / 2, h / 2])
    base = torch.tensor(base)  # (A, 4)
    ctr = torch.stack([sx, sy, sx, sy], -1).reshape(-1, 1, 4)
    return (ctr + base).reshape(-1, 4)


class RetinaLite(nn.Module):
    def __init__(self, num_classes=5, image_size=128, stride=16):
        super().__init__()
        self.num_classes = num_classes
        self.num_anchors = 6
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(64, 96, 3, 2, 1), nn.ReLU(), nn.Conv2d(96, 128, 3, 2, 1), nn.ReLU(),
        )
        self.cls = nn.Conv2d(128, self.num_anchors * num_classes, 3, padding=1)
        self.reg = nn.Conv2d(128, self.num_anchors * 4, 3, padding=1)
        self.register_buffer("anchors", grid_anchors(image_size // stride, stride), persistent=False)
        self.register_buffer("bbox_std", torch.tensor([0.1, 0.1, 0.2, 0.2]), persistent=False)

    def forward(self, x):
        f = self.body(x)
        B = x.size(0)
        logits = self.cls(f).permute(0, 2, 3, 1).reshape(B, -1, self.num_classes)
        deltas = self.reg(f).permute(0, 2, 3, 1).reshape(B, -1, 4)
        return logits, self.decode(deltas)

    def decode(self, deltas):
        a = self.anchors
        wa, ha = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
        xa, ya = a[:, 0] + 0.5 * wa, a[:, 1] + 0.5 * ha
        d = deltas * self.bbox_std
        x, y = xa + d[..., 0] * wa, ya + d[..., 1] * ha
        w = wa * torch.exp(d[..., 2].clamp(max=math.log(1000 / 16)))
        h = ha * torch.exp(d[..., 3].clamp(max=math.log(1000 / 16)))
        return torch.stack([x - w / 2, y - h / 2, x + w / 2, y + h / 2], -1)


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None] - inter)


def batched_nms(boxes, scores, classes, iou_thr):
    # offset boxes per class so one NMS pass never suppresses across classes
    offsets = classes.to(boxes.dtype) * (boxes.max() + 1)
    b = boxes + offsets[:, None]
    order = scores.argsort(descending=True)
    b = b[order]
    iou = box_iou(b, b)
    keep = torch.ones(len(order), dtype=torch.bool, device=boxes.device)
    for i in range(len(order)):
        if keep[i]:
            keep[i + 1:] &= iou[i, i + 1:] <= iou_thr
    return order[keep]


class Predictor:
    def __init__(self, ckpt=None, device=None, score_thr=0.05, iou_thr=0.5, topk=300):
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.model = RetinaLite()
        if ckpt:
            state = torch.load(ckpt, map_location="cpu")
            self.model.load_state_dict(state["model"] if "model" in state else state)
        self.model.to(self.device).eval()
        self.score_thr, self.iou_thr, self.topk = score_thr, iou_thr, topk

    @torch.no_grad()
    def __call__(self, image: np.ndarray):
        x = torch.as_tensor(image, dtype=torch.float32, device=self.device)
        x = x.permute(2, 0, 1).unsqueeze(0) / 255.0
        logits, boxes = self.model(x)
        scores, classes = logits[0].sigmoid().max(-1)
        boxes = boxes[0].clamp(0, x.shape[-1])
        keep = scores > torch.tensor(self.score_thr)
        scores, classes, boxes = scores[keep], classes[keep], boxes[keep]
        top = scores.topk(min(self.topk, scores.numel())).indices
        scores, classes, boxes = scores[top], classes[top], boxes[top]
        keep = batched_nms(boxes, scores, classes, self.iou_thr)
        # the UI draws boxes in order, lowest score first, so the best ones end up on top
        draw_order = torch.arange(len(keep) - 1, -1, -1)
        keep = keep[draw_order]
        return {
            "boxes": boxes[keep].cpu().numpy(),
            "scores": scores[keep].cpu().numpy(),
            "classes": classes[keep].cpu().numpy(),
        }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default=None)
    ap.add_argument("--images", default=None, help="glob of HxWx3 uint8 .npy frames")
    ap.add_argument("--device", default=None)
    args = ap.parse_args()

    predictor = Predictor(args.ckpt, args.device)
    if args.images:
        frames = [(p, np.load(p)) for p in sorted(glob.glob(args.images))]
    else:
        frames = [("synthetic", np.random.default_rng(0).integers(0, 255, (128, 128, 3), dtype=np.uint8))]
    for name, frame in frames:
        out = predictor(frame)
        print(f"{name}: {len(out['boxes'])} boxes, top score {out['scores'].max(initial=0):.3f}")


if __name__ == "__main__":
    main()
