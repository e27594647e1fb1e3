"""Fine-tune a one-level anchor head on synthetic squares; images go to the GPU, targets do not.

From detection training threads where the images get `.cuda()` and the annotations do not
(pytorch-retinanet "Little bug in train.py": `data['annot']` should be `.cuda()`, yolov7 "Move
target tensors to GPU"), ending in "Expected all tensors to be on the same device" inside the loss,
and from "CUDA error: invalid device ordinal" reports of scripts whose default device is the second
GPU ("I have 2 GPU in my computer, and I use 'cuda:1'").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

GRID = 8
IMG = 32
STRIDE = IMG // GRID


class SquaresDataset(Dataset):
    """One bright square per image; targets already encoded per grid cell (one anchor per cell)."""

    def __init__(self, n=96, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            img = torch.rand(3, IMG, IMG, generator=g) * 0.2
            size = int(torch.randint(6, 14, (1,), generator=g))
            x0, y0 = (int(v) for v in torch.randint(0, IMG - size, (2,), generator=g))
            img[:, y0:y0 + size, x0:x0 + size] += 0.8
            cls = torch.zeros(GRID * GRID)
            box = torch.zeros(GRID * GRID, 4)
            cx, cy = x0 + size / 2, y0 + size / 2
            cell = int(cy // STRIDE) * GRID + int(cx // STRIDE)
            cls[cell] = 1.0
            box[cell] = torch.tensor([cx % STRIDE / STRIDE, cy % STRIDE / STRIDE,
                                      size / IMG, size / IMG])
            self.items.append((img, {"cls": cls, "box": box}))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class AnchorHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.cls = nn.Conv2d(32, 1, 1)
        self.reg = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        f = self.body(x)
        cls = self.cls(f).flatten(1)
        reg = self.reg(f).permute(0, 2, 3, 1).reshape(x.size(0), -1, 4).sigmoid()
        return cls, reg


def detection_loss(cls_logits, box_pred, targets, alpha=0.25, gamma=2.0):
    p = cls_logits.sigmoid()
    ce = F.binary_cross_entropy_with_logits(cls_logits, targets["cls"], reduction="none")
    p_t = p * targets["cls"] + (1 - p) * (1 - targets["cls"])
    a_t = alpha * targets["cls"] + (1 - alpha) * (1 - targets["cls"])
    focal = (a_t * ce * (1 - p_t) ** gamma).sum() / targets["cls"].sum().clamp(min=1)
    pos = targets["cls"] > 0
    reg = F.smooth_l1_loss(box_pred[pos], targets["box"][pos])
    return focal + reg


def main():
    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    torch.manual_seed(0)
    loader = DataLoader(SquaresDataset(), batch_size=16, shuffle=True)
    model = AnchorHead().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(3):
        running = 0.0
        for images, targets in loader:
            cls_logits, box_pred = model(images.to(device))
            loss = detection_loss(cls_logits, box_pred, targets)  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: loss {running / len(loader):.4f}")


if __name__ == "__main__":
    main()
