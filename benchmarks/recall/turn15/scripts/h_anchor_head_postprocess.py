#!/usr/bin/env python
"""Run the SSD-lite detector on a folder of frames and dump detections as .npy.

    python h_anchor_head_postprocess.py --weights ssdlite.pth --out dets/
Without --weights it runs with random weights on synthetic frames (smoke test).
"""
import argparse
import itertools
import math
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def generate_anchors(feature_sizes=(8, 4), image_size=64, scales=(0.15, 0.4), ratios=(1.0, 2.0, 0.5)):
    """SSD default boxes in (cx, cy, w, h), normalised to [0, 1]."""
    anchors = []
    for fs, scale in zip(feature_sizes, scales):
        for i, j in itertools.product(range(fs), repeat=2):
            cx, cy = (j + 0.5) / fs, (i + 0.5) / fs
            for r in ratios:
                anchors.append([cx, cy, scale * math.sqrt(r), scale / math.sqrt(r)])
    return torch.tensor(anchors).clamp_(0, 1)


class SSDLite(nn.Module):
    def __init__(self, num_classes=4, num_ratios=3):
        super().__init__()
        self.num_classes = num_classes
        self.stage1 = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU6(),
            nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU6(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.ReLU6(),
        )  # 64 -> 8
        self.stage2 = nn.Sequential(nn.Conv2d(64, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.ReLU6())  # 8 -> 4
        self.heads = nn.ModuleList(
            [nn.Conv2d(64, num_ratios * (4 + num_classes), 3, padding=1) for _ in range(2)]
        )
        self.anchors = generate_anchors()  # expect: DEV010
        self.variances = (0.1, 0.2)

    def forward(self, x):
        f1 = self.stage1(x)
        f2 = self.stage2(f1)
        outs = []
        for feat, head in zip((f1, f2), self.heads):
            o = head(feat).permute(0, 2, 3, 1)
            outs.append(o.reshape(x.size(0), -1, 4 + self.num_classes))
        out = torch.cat(outs, 1)
        loc, conf = out[..., :4], out[..., 4:]
        return self.decode(loc), F.softmax(conf, -1)

    def decode(self, loc):
        a = self.anchors
        v0, v1 = self.variances
        cxcy = a[:, :2] + loc[..., :2] * v0 * a[:, 2:]
        wh = a[:, 2:] * torch.exp(loc[..., 2:] * v1)
        return torch.cat([cxcy - wh / 2, cxcy + wh / 2], -1)


def nms(boxes, scores, iou_thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        rest = order[1:]
        lt = torch.max(boxes[i, :2], boxes[rest, :2])
        rb = torch.min(boxes[i, 2:], boxes[rest, 2:])
        inter = (rb - lt).clamp(min=0).prod(1)
        area_i = (boxes[i, 2:] - boxes[i, :2]).prod()
        area_r = (boxes[rest, 2:] - boxes[rest, :2]).prod(1)
        iou = inter / (area_i + area_r - inter + 1e-9)
        order = rest[iou <= iou_thr]
    return torch.stack(keep) if keep else torch.empty(0, dtype=torch.long, device=boxes.device)


def postprocess(boxes, probs, score_thr=0.05, iou_thr=0.45, max_det=50):
    """boxes (N, 4), probs (N, C) for one image -> array (K, 6): x1 y1 x2 y2 score cls."""
    results = []
    for c in range(1, probs.size(1)):  # 0 is background
        s = probs[:, c]
        m = s > score_thr
        if not m.any():
            continue
        b, s = boxes[m], s[m]
        keep = nms(b, s, iou_thr)
        cls_col = torch.full((keep.numel(), 1), float(c), device=b.device)
        results.append(torch.cat([b[keep], s[keep, None], cls_col], 1))
    if not results:
        return np.zeros((0, 6), dtype=np.float32)
    dets = torch.cat(results)
    dets = dets[dets[:, 4].argsort(descending=True)][:max_det]
    return dets.numpy()  # expect: DEV011


def load_frames(folder, n_fake=4, size=64):
    if folder and os.path.isdir(folder):
        files = sorted(f for f in os.listdir(folder) if f.endswith(".npy"))
        return [(f, np.load(os.path.join(folder, f))) for f in files]
    rng = np.random.default_rng(0)
    return [(f"synthetic_{i}.npy", rng.integers(0, 255, (size, size, 3), dtype=np.uint8)) for i in range(n_fake)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default=None)
    ap.add_argument("--frames", default=None)
    ap.add_argument("--out", default="dets")
    ap.add_argument("--score-thr", type=float, default=0.05)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()

    device = torch.device(args.device)
    model = SSDLite()
    if args.weights:
        model.load_state_dict(torch.load(args.weights, map_location="cpu"))
    model.to(device).eval()
    os.makedirs(args.out, exist_ok=True)

    for name, frame in load_frames(args.frames):
        x = torch.from_numpy(frame).permute(2, 0, 1).float().div(255.0).unsqueeze(0).to(device)
        with torch.no_grad():
            boxes, probs = model(x)
        dets = postprocess(boxes[0], probs[0], score_thr=args.score_thr)
        np.save(os.path.join(args.out, name), dets)
        print(f"{name}: {len(dets)} detections")


if __name__ == "__main__":
    main()
