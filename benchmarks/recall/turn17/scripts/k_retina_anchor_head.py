"""Single-level RetinaNet-style detector on synthetic squares (64x64 images).

Anchors are laid out once for the fixed input size; targets are assigned by IoU,
classification uses sigmoid focal loss, regression smooth-L1 on encoded deltas.
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

IMG = 64
STRIDE = 8
SIZES = (12.0, 20.0)
NUM_CLASSES = 2


def make_anchors(img_size, stride, sizes):
    n = img_size // stride
    centers = (torch.arange(n, dtype=torch.float32) + 0.5) * stride
    cy, cx = torch.meshgrid(centers, centers, indexing="ij")
    anchors = []
    for s in sizes:
        anchors.append(torch.stack([cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2], dim=-1))
    return torch.stack(anchors, dim=2).reshape(-1, 4)    # (n*n*A, 4)


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


def decode(deltas, anchors):
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = anchors[:, 0] + aw / 2, anchors[:, 1] + ah / 2
    cx = deltas[..., 0] * aw + ax
    cy = deltas[..., 1] * ah + ay
    w = torch.exp(deltas[..., 2].clamp(max=math.log(1000 / 16))) * aw
    h = torch.exp(deltas[..., 3].clamp(max=math.log(1000 / 16))) * ah
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], -1)


def nms(boxes, scores, thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i][None], boxes[order[1:]])[0]
        order = order[1:][ious <= thr]
    return torch.stack(keep)


class Squares(Dataset):
    def __init__(self, n=64, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.samples = []
        for _ in range(n):
            img = 0.1 * torch.randn(3, IMG, IMG, generator=g)
            s = int(torch.randint(10, 22, (1,), generator=g))
            x0, y0 = torch.randint(0, IMG - s, (2,), generator=g).tolist()
            cls = int(torch.randint(0, NUM_CLASSES, (1,), generator=g))
            img[cls, y0:y0 + s, x0:x0 + s] += 1.0
            self.samples.append((img, torch.tensor([[x0, y0, x0 + s, y0 + s]], dtype=torch.float32),
                                 torch.tensor([cls])))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


def collate(batch):
    imgs, boxes, labels = zip(*batch)
    return torch.stack(imgs), list(boxes), list(labels)


class TinyRetina(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(64, 64, 3, 2, 1), nn.ReLU(),
        )
        A = len(SIZES)
        self.cls_head = nn.Conv2d(64, A * NUM_CLASSES, 3, padding=1)
        self.box_head = nn.Conv2d(64, A * 4, 3, padding=1)
        nn.init.constant_(self.cls_head.bias, -math.log((1 - 0.01) / 0.01))
        self.anchors = make_anchors(IMG, STRIDE, SIZES)  # expect: DEV010

    def forward(self, x):
        f = self.backbone(x)
        B = x.shape[0]
        cls = self.cls_head(f).permute(0, 2, 3, 1).reshape(B, -1, NUM_CLASSES)
        reg = self.box_head(f).permute(0, 2, 3, 1).reshape(B, -1, 4)
        return cls, reg

    def predict(self, x, score_thr=0.3, iou_thr=0.5):
        cls, reg = self(x)
        boxes = decode(reg, self.anchors)
        scores, labels = cls.sigmoid().max(-1)
        results = []
        for b in range(x.shape[0]):
            m = scores[b] > score_thr
            bx, sc, lb = boxes[b][m], scores[b][m], labels[b][m]
            if bx.numel() == 0:
                results.append((bx, sc, lb))
                continue
            keep = nms(bx, sc, iou_thr)
            results.append((bx[keep], sc[keep], lb[keep]))
        return results


def detection_loss(cls, reg, anchors, gt_boxes, gt_labels):
    cls_losses, reg_losses = [], []
    for b in range(cls.shape[0]):
        iou = box_iou(anchors, gt_boxes[b])            # (N, G)
        best, idx = iou.max(1)
        pos = best >= 0.4
        target = torch.zeros_like(cls[b])
        target[pos, gt_labels[b][idx[pos]]] = 1.0
        valid = (best >= 0.4) | (best < 0.3)
        cls_losses.append(sigmoid_focal_loss(cls[b][valid], target[valid]) / max(pos.sum().item(), 1))
        if pos.any():
            reg_t = encode(gt_boxes[b][idx[pos]], anchors[pos])
            reg_losses.append(F.smooth_l1_loss(reg[b][pos], reg_t, beta=1 / 9))
    reg_loss = torch.stack(reg_losses).mean() if reg_losses else cls.sum() * 0
    return torch.stack(cls_losses).mean() + reg_loss


def sigmoid_focal_loss(logits, targets, alpha=0.25, gamma=2.0):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * (1 - p_t) ** gamma
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).sum()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(Squares(), batch_size=8, shuffle=True, collate_fn=collate)
    model = TinyRetina().to(device)
    anchors = make_anchors(IMG, STRIDE, SIZES).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(3):
        model.train()
        for imgs, boxes, labels in loader:
            imgs = imgs.to(device)
            boxes = [b.to(device) for b in boxes]
            labels = [l.to(device) for l in labels]
            cls, reg = model(imgs)
            loss = detection_loss(cls, reg, anchors, boxes, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")

    model.eval()
    all_preds = []
    with torch.no_grad():
        imgs, boxes, labels = next(iter(loader))
        for bx, sc, lb in model.predict(imgs.to(device)):
            all_preds.append(np.concatenate([bx.numpy(), sc[:, None].numpy()], axis=1))  # expect: DEV011
    print("detections per image:", [p.shape[0] for p in all_preds])


if __name__ == "__main__":
    main()
