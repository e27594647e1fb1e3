"""Command-line tool that segments a folder of .npy frames with a trained FCN and writes coverage stats.

From "AssertionError: Torch not compiled with CUDA enabled" reports on inference scripts meant for
laptops (semantic-segmentation-pytorch #231 "Test on an image using our trained model",
pytorch-hed "How to run without CUDA?", learnopencv "Check if pytorch cuda is available"), where
the device is a constant and there is no CPU path.
"""
import argparse
import json
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

DEVICE = "cuda"  # expect: DEV001


class FCN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=2, dilation=2), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=4, dilation=4), nn.ReLU(),
        )
        self.classifier = nn.Conv2d(32, n_classes, 1)

    def forward(self, x):
        return self.classifier(self.body(x))


def prepare_demo(folder, weights):
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(0)
    for i in range(3):
        np.save(os.path.join(folder, f"frame_{i}.npy"), rng.random((3, 40, 40), dtype=np.float32))
    torch.save(FCN().state_dict(), weights)


def segment_folder(folder, weights, batch_size=2):
    model = FCN()
    model.load_state_dict(torch.load(weights, map_location=DEVICE))
    model.to(DEVICE).eval()
    names = sorted(f for f in os.listdir(folder) if f.endswith(".npy"))
    report = {}
    for start in range(0, len(names), batch_size):
        chunk = names[start:start + batch_size]
        frames = torch.from_numpy(np.stack([np.load(os.path.join(folder, n)) for n in chunk]))
        with torch.no_grad():
            labels = model(frames.to(DEVICE)).argmax(dim=1).cpu().numpy()
        for name, lab in zip(chunk, labels):
            counts = np.bincount(lab.ravel(), minlength=3) / lab.size
            report[name] = {f"class_{c}": round(float(v), 3) for c, v in enumerate(counts)}
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", default=os.path.join(tempfile.gettempdir(), "d_seg_frames"))
    parser.add_argument("--weights", default=os.path.join(tempfile.gettempdir(), "d_seg_fcn.pt"))
    parser.add_argument("--demo", action="store_true", default=True)
    args = parser.parse_args()
    if args.demo:
        prepare_demo(args.frames, args.weights)
    print(json.dumps(segment_folder(args.frames, args.weights), indent=1))


if __name__ == "__main__":
    main()
