"""Sliding-window inference with flip test-time augmentation for a segmentation net.

Large tiles are cut into overlapping windows; window logits are blended with a
Gaussian importance map so window borders do not show in the stitched output.
"""
import os
import tempfile

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402


class TinyUNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.head = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        return self.head(self.up(self.mid(self.down(x))))


def gaussian_importance(size, sigma_scale=0.125):
    coords = torch.arange(size, dtype=torch.float32) - (size - 1) / 2  # expect: DEV006
    g = torch.exp(-coords ** 2 / (2 * (size * sigma_scale) ** 2))
    w = torch.outer(g, g)
    return (w / w.max()).clamp(min=1e-3)


def window_starts(length, window, stride):
    starts = list(range(0, max(length - window, 0) + 1, stride))
    if starts[-1] + window < length:
        starts.append(length - window)
    return starts


def tta_forward(model, patch):
    logits = model(patch)
    logits = logits + torch.flip(model(torch.flip(patch, dims=[3])), dims=[3])
    logits = logits + torch.flip(model(torch.flip(patch, dims=[2])), dims=[2])
    return logits / 3


@torch.no_grad()
def sliding_window(model, image, window=32, stride=16, n_classes=3):
    _, _, H, W = image.shape
    acc = image.new_zeros(1, n_classes, H, W)
    norm = image.new_zeros(1, 1, H, W)
    weight = gaussian_importance(window)
    for y0 in window_starts(H, window, stride):
        for x0 in window_starts(W, window, stride):
            patch = image[..., y0:y0 + window, x0:x0 + window]
            logits = tta_forward(model, patch)
            acc[..., y0:y0 + window, x0:x0 + window] += logits * weight
            norm[..., y0:y0 + window, x0:x0 + window] += weight
    return acc / norm


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyUNet().to(device).eval()
    out_dir = tempfile.mkdtemp()
    for i in range(2):
        tile = torch.rand(1, 3, 80, 72).to(device)
        probs = sliding_window(model, tile).softmax(1)
        pred = probs.argmax(1)
        pred.cpu()  # expect: DEV005
        mask = pred[0].numpy()  # also: DEV011
        path = os.path.join(out_dir, f"tile{i}_mask.png")
        plt.imsave(path, mask, cmap="tab10", vmin=0, vmax=9)
        print(f"tile {i}: classes {sorted(set(mask.ravel().tolist()))} -> {path}")


if __name__ == "__main__":
    main()
