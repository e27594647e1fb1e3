"""Batch prediction for the fine-tuned image classifier: reads a weights file, applies
the ImageNet normalisation inside the model, writes class ids to a CSV.
    python s_export_predict.py --weights clf.pt --out preds.csv
"""
import argparse
import csv
import os

import torch
import torch.nn as nn


class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(1, -1, 1, 1)  # expect: DEV010
        self.std = torch.tensor(std).view(1, -1, 1, 1)

    def forward(self, x):
        return (x - self.mean) / self.std


def build_classifier(n_cls=3):
    backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                             nn.Linear(8, n_cls))
    return nn.Sequential(Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]), backbone)


def load_images(n):
    torch.manual_seed(0)
    return [torch.rand(3, 32, 32) for _ in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default="/tmp/s_export_predict.pt")
    ap.add_argument("--out", default="/tmp/s_export_predict.csv")
    ap.add_argument("--batch-size", type=int, default=4)
    args = ap.parse_args()

    model = build_classifier()
    if not os.path.exists(args.weights):  # demo: create a weights file
        torch.save(model.state_dict(), args.weights)
    model.load_state_dict(torch.load(args.weights, map_location="cpu"))

    device = torch.device("cuda")  # expect: DEV001
    model = model.to(device).eval()

    images = load_images(10)
    rows = []
    with torch.no_grad():
        for i in range(0, len(images), args.batch_size):
            batch = torch.stack(images[i:i + args.batch_size]).to(device)
            pred = model(batch).argmax(1).cpu().tolist()
            rows += [(i + j, p) for j, p in enumerate(pred)]
    with open(args.out, "w", newline="") as f:
        csv.writer(f).writerows([("index", "class")] + rows)
    print(f"wrote {len(rows)} predictions to {args.out}")


if __name__ == "__main__":
    main()
