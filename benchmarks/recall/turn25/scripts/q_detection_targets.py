"""Single-scale anchor detector on synthetic squares. Targets come as a list of
dicts ({"boxes", "labels"}) like torchvision detection datasets; the model
returns a loss dict in training and (boxes, scores, labels) in eval.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda x: (x[:, 2:] - x[:, :2]).prod(-1)
    return inter / (area(a)[:, None] + area(b)[None, :] - inter)


def nms(boxes, scores, thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i:i + 1], boxes[order[1:]])[0]
        order = order[1:][ious <= thr]
    return torch.stack(keep)


class Squares(Dataset):
    def __init__(self, n=64, size=32):
        self.rng = np.random.default_rng(0)
        self.n, self.size = n, size

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        img = torch.zeros(3, self.size, self.size)
        x, y = self.rng.integers(0, self.size - 10, 2)
        w = int(self.rng.integers(6, 10))
        cls = int(self.rng.integers(1, 3))
        img[cls - 1, y:y + w, x:x + w] = 1.0
        target = {"boxes": torch.tensor([[x, y, x + w, y + w]], dtype=torch.float32),
                  "labels": torch.tensor([cls])}
        return img, target


def collate(batch):
    images, targets = zip(*batch)
    return list(images), list(targets)


class TinyDetector(nn.Module):
    def __init__(self, num_classes=3, stride=4, anchor=8.0, size=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.cls_head = nn.Conv2d(32, num_classes, 1)
        self.box_head = nn.Conv2d(32, 4, 1)
        cs = (torch.arange(size // stride) + 0.5) * stride
        cy, cx = torch.meshgrid(cs, cs, indexing="ij")
        anchors = torch.stack([cx - anchor / 2, cy - anchor / 2, cx + anchor / 2, cy + anchor / 2], -1)
        self.register_buffer("anchors", anchors.reshape(-1, 4))

    def forward(self, images, targets=None):
        f = self.backbone(torch.stack(images))
        logits = self.cls_head(f).flatten(2).transpose(1, 2)
        deltas = self.box_head(f).flatten(2).transpose(1, 2)
        boxes = self.anchors + deltas * 4.0
        if targets is None:
            return boxes, logits.softmax(-1)
        cls_loss, box_loss = 0.0, 0.0
        for b, t in enumerate(targets):
            iou = box_iou(self.anchors, t["boxes"])
            best, idx = iou.max(1)
            labels = torch.where(best > 0.3, t["labels"][idx], torch.zeros_like(idx))
            cls_loss = cls_loss + F.cross_entropy(logits[b], labels)
            pos = best > 0.3
            if pos.any():
                box_loss = box_loss + F.smooth_l1_loss(boxes[b][pos], t["boxes"][idx[pos]])
        return {"cls": cls_loss / len(targets), "box": box_loss / len(targets)}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    loader = DataLoader(Squares(), batch_size=8, shuffle=True, collate_fn=collate)
    model = TinyDetector().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for images, targets in loader:
            images = [img.to(device) for img in images]
            loss_dict = model(images, targets)  # expect: DEV002
            loss = sum(loss_dict.values())
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v.item():.3f}" for k, v in loss_dict.items()))

    model.eval()
    img, _ = Squares(n=1)[0]
    with torch.no_grad():
        boxes, probs = model([img.to(device)])
    scores, labels = probs[0, :, 1:].max(-1)
    keep = nms(boxes[0], scores, 0.4)[:5]
    dets = boxes[0][keep].numpy()  # expect: DEV011
    for box, s in zip(dets, scores[keep].tolist()):
        print(np.round(box, 1), f"{s:.2f}")


if __name__ == "__main__":
    main()
