"""Inference for our small CenterNet-style detector (heatmap + width/height heads).

Decodes peaks into boxes, runs a numpy NMS and prints the detections per image.
"""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

STRIDE = 4


class TinyCenterNet(nn.Module):
    def __init__(self, num_classes=2, ch=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, ch, 3, stride=2, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(inplace=True),
        )
        self.hm = nn.Conv2d(ch, num_classes, 1)
        self.wh = nn.Conv2d(ch, 2, 1)

    def forward(self, x):
        f = self.backbone(x)
        return torch.sigmoid(self.hm(f)), F.softplus(self.wh(f))


def decode(heatmap, wh, k=20):
    """heatmap: B x C x H x W, wh: B x 2 x H x W (in feature-map cells)."""
    b, c, h, w = heatmap.shape
    pooled = F.max_pool2d(heatmap, 3, stride=1, padding=1)
    heatmap = heatmap * (pooled == heatmap).float()
    scores, idx = heatmap.view(b, -1).topk(k)
    cls = idx // (h * w)
    pix = idx % (h * w)
    ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")  # expect: DEV006
    cx = (xs.reshape(-1)[pix] + 0.5) * STRIDE
    cy = (ys.reshape(-1)[pix] + 0.5) * STRIDE
    wh_flat = wh.view(b, 2, -1)
    bw = torch.gather(wh_flat[:, 0], 1, pix) * STRIDE
    bh = torch.gather(wh_flat[:, 1], 1, pix) * STRIDE
    boxes = torch.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], dim=-1)
    return boxes, scores, cls


def nms_numpy(boxes, scores, thr=0.5):
    order = scores.argsort()[::-1]
    keep = []
    while order.size > 0:
        i = order[0]
        keep.append(i)
        xx1 = np.maximum(boxes[i, 0], boxes[order[1:], 0])
        yy1 = np.maximum(boxes[i, 1], boxes[order[1:], 1])
        xx2 = np.minimum(boxes[i, 2], boxes[order[1:], 2])
        yy2 = np.minimum(boxes[i, 3], boxes[order[1:], 3])
        inter = np.clip(xx2 - xx1, 0, None) * np.clip(yy2 - yy1, 0, None)
        area_i = (boxes[i, 2] - boxes[i, 0]) * (boxes[i, 3] - boxes[i, 1])
        area_o = (boxes[order[1:], 2] - boxes[order[1:], 0]) * (boxes[order[1:], 3] - boxes[order[1:], 1])
        iou = inter / (area_i + area_o - inter + 1e-6)
        order = order[1:][iou < thr]
    return keep


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default="centernet_tiny.pth")
    ap.add_argument("--score-thr", type=float, default=0.3)
    ap.add_argument("--batch", type=int, default=2)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyCenterNet()
    if os.path.isfile(args.weights):
        state = torch.load(args.weights, map_location="cuda:0")  # expect: DEV001
        model.load_state_dict(state["model"] if "model" in state else state)
    model.to(device).eval()

    images = torch.rand(args.batch, 3, 128, 128)
    with torch.no_grad():
        hm, wh = model(images.to(device))
        boxes, scores, classes = decode(hm, wh)

    for b in range(boxes.shape[0]):
        bx = boxes[b].cpu().numpy()
        sc = scores[b].cpu().numpy()
        cl = classes[b].cpu().numpy()
        m = sc > args.score_thr
        keep = nms_numpy(bx[m], sc[m]) if m.any() else []
        print(f"image {b}: {len(keep)} detections")
        for i in keep:
            print("   cls", int(cl[m][i]), "score %.2f" % sc[m][i], np.round(bx[m][i], 1))


if __name__ == "__main__":
    main()
