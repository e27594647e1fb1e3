"""SSD-lite inference on synthetic frames: prior boxes decoded against the head's offsets.

Written from the SSD-port threads where `convert_locations_to_boxes` fails with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" because the
priors were built once in `__init__` and never followed the model to the GPU (the jetson-inference
SSD report, torchvision's DefaultBoxGenerator issue), and from "can't convert cuda:0 device type
tensor to numpy" when the decoded boxes are drawn with NumPy.
"""
import itertools
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_priors(fmap_sizes, image_size, min_sizes, aspect_ratios=(1.0, 2.0, 0.5)):
    priors = []
    for k, f in enumerate(fmap_sizes):
        for i, j in itertools.product(range(f), repeat=2):
            cx, cy = (j + 0.5) / f, (i + 0.5) / f
            s = min_sizes[k] / image_size
            for ar in aspect_ratios:
                priors.append([cx, cy, s * math.sqrt(ar), s / math.sqrt(ar)])
    return torch.tensor(priors).clamp_(0, 1)


class TinySSD(nn.Module):
    def __init__(self, num_classes=3, image_size=64):
        super().__init__()
        self.num_classes = num_classes
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.extra = nn.Sequential(nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU())
        n_anchors = 3
        self.loc = nn.ModuleList([nn.Conv2d(32, n_anchors * 4, 3, padding=1) for _ in range(2)])
        self.conf = nn.ModuleList(
            [nn.Conv2d(32, n_anchors * num_classes, 3, padding=1) for _ in range(2)]
        )
        self.priors = make_priors([8, 4], image_size, [12, 28])  # expect: DEV010
        self.center_variance = 0.1
        self.size_variance = 0.2

    def forward(self, x):
        f1 = self.backbone(x)
        f2 = self.extra(f1)
        locs, confs = [], []
        for feat, loc_head, conf_head in zip((f1, f2), self.loc, self.conf):
            locs.append(loc_head(feat).permute(0, 2, 3, 1).reshape(x.size(0), -1, 4))
            confs.append(
                conf_head(feat).permute(0, 2, 3, 1).reshape(x.size(0), -1, self.num_classes)
            )
        scores = F.softmax(torch.cat(confs, 1), dim=-1)
        boxes = self.decode(torch.cat(locs, 1))
        return scores, boxes

    def decode(self, locs):
        centers = locs[..., :2] * self.center_variance * self.priors[..., 2:] + self.priors[..., :2]
        sizes = torch.exp(locs[..., 2:] * self.size_variance) * self.priors[..., 2:]
        return torch.cat([centers - sizes / 2, centers + sizes / 2], dim=-1)


def draw_detections(image_hw, scores, boxes, threshold=0.5):
    h, w = image_hw
    canvas = np.zeros((h, w), dtype=np.uint8)
    best, _ = scores[..., 1:].max(dim=-1)
    keep = best > threshold
    pixel_boxes = boxes[keep].clamp(0, 1).numpy()  # expect: DEV011
    pixel_boxes = (pixel_boxes * np.array([w, h, w, h])).astype(int)
    for x0, y0, x1, y1 in pixel_boxes:
        canvas[y0:y1, x0] = 255
        canvas[y0:y1, max(x1 - 1, 0)] = 255
        canvas[y0, x0:x1] = 255
        canvas[max(y1 - 1, 0), x0:x1] = 255
    return canvas, len(pixel_boxes)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = TinySSD().to(device).eval()
    frames = torch.rand(2, 3, 64, 64)
    with torch.no_grad():
        scores, boxes = model(frames.to(device))
    for i in range(frames.size(0)):
        canvas, n = draw_detections((64, 64), scores[i], boxes[i], threshold=0.34)
        print(f"frame {i}: {n} boxes drawn, {int(canvas.sum() // 255)} edge pixels")


if __name__ == "__main__":
    main()
