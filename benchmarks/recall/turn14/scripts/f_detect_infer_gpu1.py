"""Run a small center-point detector over a folder of frames and draw the boxes.

    python f_detect_infer_gpu1.py --weights detector.pt --score-thr 0.3
"""
import argparse
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.patches as patches
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F


class CenterDetector(nn.Module):
    """Backbone at stride 4, heads for a center heatmap and box width/height."""

    def __init__(self, n_classes=2):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(),
        )
        self.heatmap = nn.Conv2d(64, n_classes, 1)
        self.wh = nn.Conv2d(64, 2, 1)

    def forward(self, x):
        f = self.backbone(x)
        return torch.sigmoid(self.heatmap(f)), F.softplus(self.wh(f))


def load_detector(weights):
    # keep GPU 0 free for the training job that runs next to this
    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    model = CenterDetector()
    if weights:
        model.load_state_dict(torch.load(weights, map_location=device))
    return model.to(device).eval(), device


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(dim=2)
    area_a = (a[:, 2:] - a[:, :2]).prod(dim=1)
    area_b = (b[:, 2:] - b[:, :2]).prod(dim=1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def nms(boxes, scores, iou_thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]]).squeeze(0)
        order = order[1:][ious <= iou_thr]
    return torch.stack(keep) if keep else order


def decode(heat, wh, score_thr, stride=4, top_k=50):
    heat = heat * (F.max_pool2d(heat, 3, stride=1, padding=1) == heat).float()
    n_cls, H, W = heat.shape
    scores, idx = heat.flatten().topk(top_k)
    cls = idx // (H * W)
    ys, xs = (idx % (H * W)) // W, idx % W
    w, h = wh[0, ys, xs] * stride, wh[1, ys, xs] * stride
    cx, cy = (xs.float() + 0.5) * stride, (ys.float() + 0.5) * stride
    boxes = torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=1)
    keep = scores > score_thr
    return boxes[keep], scores[keep], cls[keep]


@torch.no_grad()
def detect(model, image, device, score_thr=0.3, iou_thr=0.5):
    heat, wh = model(image.unsqueeze(0).to(device))
    boxes, scores, labels = decode(heat[0], wh[0], score_thr)
    keep = nms(boxes, scores, iou_thr) if boxes.numel() else torch.zeros(0, dtype=torch.long, device=boxes.device)
    return boxes[keep], scores[keep], labels[keep]


def draw(image, boxes, scores, labels, path):
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.imshow(image.permute(1, 2, 0).numpy())
    for (x0, y0, x1, y1), s, c in zip(boxes.numpy(), scores.tolist(), labels.tolist()):  # expect: DEV011
        ax.add_patch(patches.Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, color="r" if c == 0 else "b"))
        ax.text(x0, y0, f"{s:.2f}", color="yellow", fontsize=7)
    ax.axis("off")
    fig.savefig(path)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", default="")
    parser.add_argument("--score-thr", type=float, default=0.3)
    parser.add_argument("--n-frames", type=int, default=3)
    parser.add_argument("--out-dir", default=tempfile.gettempdir())
    args = parser.parse_args()

    torch.manual_seed(0)
    model, device = load_detector(args.weights)
    frames = torch.rand(args.n_frames, 3, 128, 128)
    for i, frame in enumerate(frames):
        boxes, scores, labels = detect(model, frame, device, args.score_thr)
        out = os.path.join(args.out_dir, f"frame_{i:03d}_det.png")
        draw(frame, boxes, scores, labels, out)
        print(f"frame {i}: {len(scores)} boxes -> {out}")


if __name__ == "__main__":
    main()
