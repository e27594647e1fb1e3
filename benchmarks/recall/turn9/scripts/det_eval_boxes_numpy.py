"""Detector evaluation: predicted boxes are converted to NumPy for an IoU-based matching routine.

Thread: https://github.com/JDAI-CV/fast-reid/pull/509 (can't convert cuda:0 device type tensor to
numpy. Use Tensor.cpu() to copy the tensor to host memory first).
"""
import numpy as np
import torch
import torch.nn as nn


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.reg = nn.Linear(8, 4 * 5)
        self.score = nn.Linear(8, 5)

    def forward(self, images):
        f = self.backbone(images)
        return [{"boxes": b.view(5, 4).abs() * 32, "scores": s.sigmoid()} for b, s in zip(self.reg(f), self.score(f))]


def iou_np(a, b):
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(-1)
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])
    return inter / (area(a)[:, None] + area(b)[None] - inter + 1e-6)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyDetector().to(device).eval()
    gt = np.array([[2.0, 2.0, 20.0, 20.0]])
    hits = 0
    with torch.no_grad():
        for _ in range(4):
            outputs = model(torch.rand(2, 3, 32, 32).to(device))
            for out in outputs:
                boxes = out["boxes"].detach().numpy()  # expect: DEV011
                hits += int((iou_np(boxes, gt) > 0.5).any())
    print(hits)


if __name__ == "__main__":
    main()
