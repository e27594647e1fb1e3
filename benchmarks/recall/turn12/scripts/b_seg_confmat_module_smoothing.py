"""Tiny semantic segmentation net with a fixed smoothing layer and an nn.Module IoU metric.

Written from "Multiclass Confmat calculation throws different device
exception" (Lightning-AI/torchmetrics#1865, metrics are nn.Modules that must be
moved), "phase_advance should be a buffer so it moves device correctly"
(pytorch/audio#457) and "Best practice: How to convert a tensor created in
__init__() to the same device as the model" (Lightning-AI/pytorch-lightning#1978):
the blur kernel is a plain tensor attribute, and the confusion-matrix module is
never moved to the device of the predictions it accumulates.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConfusionMatrix(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.register_buffer("mat", torch.zeros(num_classes, num_classes, dtype=torch.long))

    @torch.no_grad()
    def update(self, preds, target):
        k = self.num_classes
        valid = (target >= 0) & (target < k)
        idx = k * target[valid] + preds[valid]
        self.mat += torch.bincount(idx, minlength=k * k).reshape(k, k)

    def iou(self):
        mat = self.mat.double()
        inter = mat.diag()
        return inter / (mat.sum(0) + mat.sum(1) - inter).clamp(min=1)

    def reset(self):
        self.mat.zero_()


class BoxBlur(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.channels = channels
        self.kernel = torch.full((channels, 1, 3, 3), 1.0 / 9.0)  # expect: DEV010

    def forward(self, x):
        return F.conv2d(x, self.kernel, padding=1, groups=self.channels)


class TinySegNet(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, num_classes, 1),
        )
        self.smooth = BoxBlur(num_classes)

    def forward(self, x):
        return self.smooth(self.body(x))


def shapes_batch(n, g):
    img = torch.rand(n, 1, 24, 24, generator=g) * 0.2
    mask = torch.zeros(n, 24, 24, dtype=torch.long)
    for i in range(n):
        r, c = torch.randint(4, 16, (2,), generator=g).tolist()
        cls = 1 + i % 2
        mask[i, r:r + 6, c:c + 6] = cls
        img[i, 0, r:r + 6, c:c + 6] += 0.4 * cls
    return img, mask


def main(steps=150):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinySegNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    confmat = ConfusionMatrix(num_classes=3)  # expect: DEV019
    g = torch.Generator().manual_seed(0)

    for step in range(steps):
        img, mask = shapes_batch(16, g)
        img, mask = img.to(device), mask.to(device)
        logits = model(img)
        loss = F.cross_entropy(logits, mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if step % 50 == 49:
            model.eval()
            confmat.reset()
            with torch.no_grad():
                for _ in range(4):
                    img, mask = shapes_batch(16, g)
                    img, mask = img.to(device), mask.to(device)
                    confmat.update(model(img).argmax(dim=1), mask)
            model.train()
            ious = confmat.iou()
            print(f"step {step + 1} loss {loss.item():.3f} mIoU {ious.mean().item():.3f} per class {ious.tolist()}")


if __name__ == "__main__":
    main()
