"""Validation of a 2D segmentation net with Gaussian-blended sliding-window
inference, a class-weighted Dice+CE validation loss and torchmetrics mIoU.

Runs on the second GPU when the machine has two (the first one serves the
viewer), on the first one otherwise, and on the CPU without a GPU.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import MulticlassJaccardIndex


def pick_device():
    if torch.cuda.device_count() > 1:
        return torch.device("cuda:1")
    return torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class WeightedDiceCE(nn.Module):
    def __init__(self, class_weights, smooth=1e-5):
        super().__init__()
        self.register_buffer("class_weights", torch.tensor(class_weights, dtype=torch.float32))
        self.smooth = smooth

    def forward(self, logits, target):
        probs = logits.softmax(1)
        one_hot = F.one_hot(target, logits.shape[1]).permute(0, 3, 1, 2).float()
        inter = (probs * one_hot).sum((0, 2, 3))
        union = probs.sum((0, 2, 3)) + one_hot.sum((0, 2, 3))
        dice = (2 * inter + self.smooth) / (union + self.smooth)
        w = self.class_weights / self.class_weights.sum()
        return 1 - (w * dice).sum() + F.cross_entropy(logits, target, weight=self.class_weights)


def gaussian_importance(size, device):
    coords = torch.arange(size, dtype=torch.float32, device=device) - (size - 1) / 2
    g = torch.exp(-(coords ** 2) / (2 * (size / 8) ** 2))
    return (g[:, None] * g[None, :] / g.max() ** 2).clamp(min=1e-3)


def window_starts(length, roi, step):
    starts = list(range(0, max(length - roi, 0) + 1, step))
    if starts[-1] + roi < length:
        starts.append(length - roi)
    return starts


@torch.no_grad()
def sliding_window_predict(model, image, roi=32, n_classes=3):
    _, _, H, W = image.shape
    importance = gaussian_importance(roi, image.device)
    logits_sum = torch.zeros(1, n_classes, H, W, device=image.device)
    weight_sum = torch.zeros(1, 1, H, W, device=image.device)
    for y in window_starts(H, roi, roi // 2):
        for x in window_starts(W, roi, roi // 2):
            out = model(image[..., y:y + roi, x:x + roi])
            logits_sum[..., y:y + roi, x:x + roi] += out * importance
            weight_sum[..., y:y + roi, x:x + roi] += importance
    return logits_sum / weight_sum


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", required=True)
    args = parser.parse_args()
    device = pick_device()

    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 1))
    model.load_state_dict(torch.load(args.ckpt, map_location="cpu")["model"])
    model.to(device).eval()
    criterion = WeightedDiceCE([0.1, 1.0, 3.0]).to(device)
    miou = MulticlassJaccardIndex(num_classes=3, average="macro").to(device)

    g = torch.Generator().manual_seed(0)
    losses = []
    for _ in range(3):
        image = torch.randn(1, 1, 80, 72, generator=g).to(device)
        label = torch.randint(0, 3, (1, 80, 72), generator=g).to(device)
        logits = sliding_window_predict(model, image)
        losses.append(criterion(logits, label).item())
        miou.update(logits.argmax(1), label)
    print(f"val loss {sum(losses) / len(losses):.4f} mIoU {miou.compute().item():.4f}")


if __name__ == "__main__":
    main()
