"""Sliding-window inference over a 3D MRI volume (importance map on the model's device); patch predictions are blended with a
Gaussian importance map and stitched back into a numpy probability volume."""
import itertools

import numpy as np
import torch
import torch.nn as nn


def gaussian_importance(patch, sigma_scale=0.125):
    grids = []
    for size in patch:
        ax = np.arange(size) - (size - 1) / 2.0
        grids.append(np.exp(-(ax ** 2) / (2 * (size * sigma_scale) ** 2)))
    g = grids[0][:, None, None] * grids[1][None, :, None] * grids[2][None, None, :]
    g = g / g.max()
    return torch.from_numpy(g.astype(np.float32))


def starts(length, patch, step):
    pos = list(range(0, max(length - patch, 0) + 1, step))
    if pos[-1] + patch < length:
        pos.append(length - patch)
    return pos


@torch.no_grad()
def sliding_window_predict(model, volume, n_classes, patch=(16, 16, 16), overlap=0.5, device="cpu"):
    D, H, W = volume.shape
    step = [max(1, int(p * (1 - overlap))) for p in patch]
    probs = np.zeros((n_classes, D, H, W), dtype=np.float32)
    counts = np.zeros((D, H, W), dtype=np.float32)
    weight = gaussian_importance(patch).to(device)
    weight_np = weight.cpu().numpy()
    for z, y, x in itertools.product(starts(D, patch[0], step[0]),
                                     starts(H, patch[1], step[1]),
                                     starts(W, patch[2], step[2])):
        crop = volume[z:z + patch[0], y:y + patch[1], x:x + patch[2]]
        inp = torch.from_numpy(np.ascontiguousarray(crop))[None, None].to(device)
        out = model(inp).softmax(dim=1)[0] * weight
        probs[:, z:z + patch[0], y:y + patch[1], x:x + patch[2]] += out.cpu().numpy()
        counts[z:z + patch[0], y:y + patch[1], x:x + patch[2]] += weight_np
    return probs / np.maximum(counts, 1e-6)[None]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(
        nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 4, 1)
    ).to(device).eval()
    volume = np.random.default_rng(1).normal(size=(24, 40, 40)).astype(np.float32)
    volume = (volume - volume.mean()) / volume.std()
    probs = sliding_window_predict(model, volume, n_classes=4, device=device)
    seg = probs.argmax(axis=0).astype(np.uint8)
    print("labels in prediction:", np.unique(seg), seg.shape)


if __name__ == "__main__":
    main()
