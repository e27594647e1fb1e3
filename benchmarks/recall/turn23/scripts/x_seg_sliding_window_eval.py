"""Evaluate a trained 2D segmentation net on full-size slices with
overlapping sliding-window inference (Gaussian-weighted blending).

Usage: python x_seg_sliding_window_eval.py --ckpt runs/unet/best.pt [--cpu]
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import MulticlassJaccardIndex


def gaussian_importance(size, sigma_scale=0.125, device=None):
    coords = torch.arange(size, dtype=torch.float32, device=device) - (size - 1) / 2
    g = torch.exp(-(coords ** 2) / (2 * (size * sigma_scale) ** 2))
    w = g[:, None] * g[None, :]
    return (w / w.max()).clamp(min=1e-3)


def window_starts(length, roi, overlap):
    step = max(1, int(roi * (1 - overlap)))
    starts = list(range(0, max(length - roi, 0) + 1, step))
    if starts[-1] + roi < length:
        starts.append(length - roi)
    return starts


@torch.no_grad()
def sliding_window_predict(model, image, roi=32, overlap=0.5, n_classes=3):
    """image: (1, C, H, W) on the model's device."""
    _, _, H, W = image.shape
    importance = gaussian_importance(roi, device=image.device)
    logits_sum = torch.zeros(1, n_classes, H, W)  # expect: DEV006
    weight_sum = torch.zeros(1, 1, H, W, device=image.device)
    for y in window_starts(H, roi, overlap):
        for x in window_starts(W, roi, overlap):
            patch = image[..., y:y + roi, x:x + roi]
            out = model(patch)
            logits_sum[..., y:y + roi, x:x + roi] += out * importance
            weight_sum[..., y:y + roi, x:x + roi] += importance
    return logits_sum / weight_sum


class SegNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, n_classes, 1),
        )

    def forward(self, x):
        return self.body(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", required=True)
    parser.add_argument("--cpu", action="store_true")
    parser.add_argument("--roi", type=int, default=32)
    args = parser.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    model = SegNet()
    ckpt = torch.load(args.ckpt)  # expect: DEV008
    model.load_state_dict(ckpt["model"])
    model.to(device).eval()

    miou = MulticlassJaccardIndex(num_classes=3, average="macro")  # expect: DEV019
    g = torch.Generator().manual_seed(1)
    for case in range(3):
        image = torch.randn(1, 1, 80, 72, generator=g).to(device)
        label = torch.randint(0, 3, (1, 80, 72), generator=g).to(device)
        probs = sliding_window_predict(model, image, roi=args.roi).softmax(1)
        pred = probs.argmax(1)
        miou.update(pred, label)
    print(f"mIoU over {case + 1} cases: {miou.compute().item():.4f}")


if __name__ == "__main__":
    main()
