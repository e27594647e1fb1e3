"""Tiny single-stage detector, anchors made on the feature map's device (one feature level, 3 anchors per cell) on synthetic boxes."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class ToyBoxes(Dataset):
    def __init__(self, n=32, size=64):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.targets = []
        for _ in range(n):
            k = int(torch.randint(1, 4, (1,), generator=g))
            xy = torch.rand(k, 2, generator=g) * (size - 16)
            wh = 8 + torch.rand(k, 2, generator=g) * 8
            boxes = torch.cat([xy, xy + wh], dim=1)
            labels = torch.randint(0, 3, (k,), generator=g)
            self.targets.append({"boxes": boxes, "labels": labels})

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.targets[i]


def collate(batch):
    images, targets = zip(*batch)
    return torch.stack(images), list(targets)


class GridDetector(nn.Module):
    def __init__(self, num_classes=3, stride=8, anchor_sizes=(8.0, 12.0, 16.0)):
        super().__init__()
        self.stride = stride
        self.anchor_sizes = anchor_sizes
        self.num_classes = num_classes
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(),
        )
        na = len(anchor_sizes)
        self.head = nn.Conv2d(32, na * (4 + 1 + num_classes), 1)

    def anchors(self, feat):
        h, w = feat.shape[-2:]
        ys, xs = torch.meshgrid(torch.arange(h, device=feat.device), torch.arange(w, device=feat.device), indexing="ij")
        centers = torch.stack([xs, ys], dim=-1).reshape(-1, 1, 2).float() * self.stride + self.stride / 2
        sizes = centers.new_tensor(self.anchor_sizes).view(1, -1, 1).expand(h * w, -1, 2)
        return torch.cat([centers - sizes / 2, centers + sizes / 2], dim=-1).reshape(-1, 4)

    def forward(self, images):
        feat = self.backbone(images)
        out = self.head(feat)
        b = out.shape[0]
        out = out.permute(0, 2, 3, 1).reshape(b, -1, 4 + 1 + self.num_classes)
        anchors = self.anchors(feat)
        boxes = anchors.unsqueeze(0) + out[..., :4] * 4.0
        return boxes, out[..., 4], out[..., 5:], anchors


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def nms(boxes, scores, thr=0.5):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]]).squeeze(0)
        order = order[1:][ious <= thr]
    return torch.stack(keep)


def detection_loss(boxes, obj, cls, anchors, targets):
    total = 0.0
    for i, t in enumerate(targets):
        iou = box_iou(anchors, t["boxes"])
        best, idx = iou.max(dim=1)
        pos = best > 0.3
        obj_t = pos.float()
        total = total + F.binary_cross_entropy_with_logits(obj[i], obj_t)
        if pos.any():
            total = total + F.cross_entropy(cls[i][pos], t["labels"][idx[pos]])
            total = total + F.smooth_l1_loss(boxes[i][pos], t["boxes"][idx[pos]])
    return total / len(targets)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    loader = DataLoader(ToyBoxes(), batch_size=4, shuffle=True, collate_fn=collate)
    model = GridDetector().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    for epoch in range(args.epochs):
        model.train()
        for images, targets in loader:
            images = images.to(device)
            targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
            boxes, obj, cls, anchors = model(images)
            loss = detection_loss(boxes, obj, cls, anchors, targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")

    model.eval()
    images, _ = next(iter(loader))
    with torch.no_grad():
        boxes, obj, cls, _ = model(images.to(device))
    scores = obj[0].sigmoid()
    top = scores > scores.quantile(0.9)
    keep = nms(boxes[0][top], scores[top])
    kept = boxes[0][top][keep].cpu().numpy()
    print("kept boxes:", kept.shape)


if __name__ == "__main__":
    main()
