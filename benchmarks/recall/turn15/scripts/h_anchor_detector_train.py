"""Single-level anchor-based detector (RetinaNet-style head) on synthetic squares.

Each image has 1-3 bright squares; the detector learns objectness per anchor and
box deltas. Model EMA is kept for evaluation, as in the YOLO/timm recipes.
"""
import copy
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

IMG = 64
STRIDE = 8
ANCHOR_SIZES = (8.0, 16.0, 24.0)


def make_anchors(img_size=IMG, stride=STRIDE, sizes=ANCHOR_SIZES):
    n = img_size // stride
    centers = (torch.arange(n, dtype=torch.float32) + 0.5) * stride
    cy, cx = torch.meshgrid(centers, centers, indexing="ij")
    boxes = []
    for s in sizes:
        boxes.append(torch.stack([cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2], -1))
    return torch.stack(boxes, 2).reshape(-1, 4)  # (H*W*A, 4), location-major


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def encode(gt, anchors):
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = anchors[:, 0] + aw / 2, anchors[:, 1] + ah / 2
    gw, gh = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
    gx, gy = gt[:, 0] + gw / 2, gt[:, 1] + gh / 2
    return torch.stack([(gx - ax) / aw, (gy - ay) / ah, torch.log(gw / aw), torch.log(gh / ah)], 1)


class Squares(Dataset):
    def __init__(self, n, seed=0):
        self.rng = random.Random(seed)
        self.items = [self._make() for _ in range(n)]

    def _make(self):
        img = torch.rand(3, IMG, IMG) * 0.2
        boxes, labels = [], []
        for _ in range(self.rng.randint(1, 3)):
            s = self.rng.randint(8, 24)
            x0, y0 = self.rng.randint(0, IMG - s), self.rng.randint(0, IMG - s)
            cls = self.rng.randint(0, 1)
            img[cls, y0:y0 + s, x0:x0 + s] += 0.8
            boxes.append([x0, y0, x0 + s, y0 + s])
            labels.append(cls + 1)
        return img, {"boxes": torch.tensor(boxes, dtype=torch.float32),
                     "labels": torch.tensor(labels, dtype=torch.long)}

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    imgs, targets = zip(*batch)
    return torch.stack(imgs), list(targets)


class AnchorDetector(nn.Module):
    def __init__(self, num_classes=3, num_anchors=len(ANCHOR_SIZES)):
        super().__init__()
        self.num_classes, self.A = num_classes, num_anchors
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(64, 64, 3, 2, 1), nn.ReLU(),
        )
        self.cls_head = nn.Conv2d(64, num_anchors * num_classes, 3, padding=1)
        self.box_head = nn.Conv2d(64, num_anchors * 4, 3, padding=1)
        prior = 0.01
        nn.init.constant_(self.cls_head.bias, -math.log((1 - prior) / prior))
        self.register_buffer("anchors", make_anchors(), persistent=False)

    def forward(self, x):
        f = self.backbone(x)
        B = x.size(0)
        cls = self.cls_head(f).permute(0, 2, 3, 1).reshape(B, -1, self.num_classes)
        box = self.box_head(f).permute(0, 2, 3, 1).reshape(B, -1, 4)
        return cls, box


class DetectionLoss(nn.Module):
    def __init__(self, num_classes, pos_iou=0.5, neg_iou=0.4):
        super().__init__()
        self.num_classes, self.pos_iou, self.neg_iou = num_classes, pos_iou, neg_iou

    def forward(self, cls_out, box_out, anchors, targets):
        cls_losses, box_losses = [], []
        for b, t in enumerate(targets):
            iou = box_iou(anchors, t["boxes"])  # (N_anchors, n_gt)
            best_iou, best_gt = iou.max(1)
            best_iou[iou.argmax(0)] = 1.0  # every gt keeps at least its best anchor
            labels = t["labels"][best_gt].clone()
            labels[best_iou < self.pos_iou] = 0
            valid = (best_iou >= self.pos_iou) | (best_iou < self.neg_iou)
            onehot = F.one_hot(labels, self.num_classes).float()
            cl = sigmoid_focal_loss(cls_out[b][valid], onehot[valid])
            pos = labels > 0
            n_pos = pos.sum().clamp(min=1)
            cls_losses.append(cl.sum() / n_pos)
            if pos.any():
                target = encode(t["boxes"][best_gt[pos]], anchors[pos])
                box_losses.append(F.smooth_l1_loss(box_out[b][pos], target, reduction="sum") / n_pos)
        box_loss = torch.stack(box_losses).mean() if box_losses else cls_out.sum() * 0
        return torch.stack(cls_losses).mean() + box_loss


def sigmoid_focal_loss(logits, targets, alpha=0.25, gamma=2.0):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    a_t = alpha * targets + (1 - alpha) * (1 - targets)
    return a_t * ce * (1 - p_t) ** gamma


@torch.no_grad()
def ema_update(ema_model, model, decay):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.mul_(decay).add_(p.detach(), alpha=1 - decay)
    for ema_b, b in zip(ema_model.buffers(), model.buffers()):
        ema_b.copy_(b)


def main(epochs=3, batch_size=16, lr=1e-3, ema_decay=0.99):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(Squares(256), batch_size=batch_size, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(Squares(64, seed=1), batch_size=32, collate_fn=collate)

    model = AnchorDetector()
    ema_model = copy.deepcopy(model).eval()  # expect: DEV016
    for p in ema_model.parameters():
        p.requires_grad_(False)
    model.to(device)

    criterion = DetectionLoss(num_classes=3)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)

    for epoch in range(epochs):
        model.train()
        for images, targets in loader:
            images = images.to(device)
            for t in targets:
                t["boxes"].to(device)  # expect: DEV005
                t["labels"].to(device)  # expect: DEV005
            cls_out, box_out = model(images)
            loss = criterion(cls_out, box_out, model.anchors, targets)  # also: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema_update(ema_model, model, ema_decay)

        val_loss, n = 0.0, 0
        with torch.no_grad():
            for images, targets in val_loader:
                images = images.to(device)
                targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
                cls_out, box_out = ema_model(images)
                val_loss += criterion(cls_out, box_out, ema_model.anchors, targets).item()
                n += 1
        print(f"epoch {epoch}: train loss {loss.item():.4f} ema val loss {val_loss / n:.4f}")


if __name__ == "__main__":
    main()
