"""Inference wrapper for a trained building-footprint segmenter: the Predictor picks the GPU when
there is one, loads the released weights and returns a binary mask for an image tile.

Thread: https://github.com/aatifjiwani/rgb-footprint-extract/issues/16 (testing on a CPU-only
machine: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is
False).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySegmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(32, 1, 1)

    def forward(self, x):
        return F.interpolate(self.head(self.down(x)), size=x.shape[-2:], mode="bilinear", align_corners=False)


class Predictor:
    def __init__(self, weights):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = TinySegmenter()
        state = torch.load(weights)  # expect: DEV008
        self.model.load_state_dict(state.get("model", state))
        self.model.to(self.device).eval()

    @torch.no_grad()
    def __call__(self, tile, threshold=0.5):
        x = torch.from_numpy(tile).permute(2, 0, 1).float().div(255)[None].to(self.device)
        prob = torch.sigmoid(self.model(x))[0, 0]
        return (prob > threshold).cpu().numpy().astype(np.uint8)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", default="checkpoints/footprint_best.pth")
    args = parser.parse_args()
    predictor = Predictor(args.weights)
    tile = (np.random.rand(128, 128, 3) * 255).astype(np.uint8)
    print(predictor(tile).mean())
