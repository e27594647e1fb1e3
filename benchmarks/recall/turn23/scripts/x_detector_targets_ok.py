"""Anchor-based detector trained on uint8 images with list-of-dict targets,
then greedy NMS on the predictions; boxes are written out through NumPy."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def nms(boxes, scores, thresh=0.5):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        iou = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]])[0]
        order = order[1:][iou <= thresh]
    return torch.stack(keep)


def make_anchors(feat_size, stride, sizes=(8.0, 16.0)):
    ys, xs = torch.meshgrid(torch.arange(feat_size), torch.arange(feat_size), indexing="ij")
    centres = torch.stack([xs, ys], dim=-1).reshape(-1, 2).float() * stride + stride / 2
    return torch.stack([torch.cat([centres - s / 2, centres + s / 2], 1) for s in sizes], 1).reshape(-1, 4)


class Boxes(Dataset):
    def __init__(self, n=16, size=64):
        self.g = torch.Generator().manual_seed(0)
        self.n, self.size = n, size

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        img = (torch.rand(3, self.size, self.size, generator=self.g) * 255).to(torch.uint8)
        k = int(torch.randint(1, 4, (1,), generator=self.g))
        xy = torch.rand(k, 2, generator=self.g) * (self.size - 20)
        boxes = torch.cat([xy, xy + torch.rand(k, 2, generator=self.g) * 12 + 6], 1)
        return img, {"boxes": boxes, "labels": torch.randint(1, 3, (k,), generator=self.g)}


class Detector(nn.Module):
    def __init__(self, num_classes=3, img_size=64, stride=8):
        super().__init__()
        self.backbone = nn.Sequential(*[m for c_in, c_out in [(3, 16), (16, 32), (32, 32)]
                                        for m in (nn.Conv2d(c_in, c_out, 3, 2, 1), nn.ReLU())])
        self.num_classes = num_classes
        self.cls_head = nn.Conv2d(32, 2 * num_classes, 3, padding=1)
        self.box_head = nn.Conv2d(32, 2 * 4, 3, padding=1)
        self.register_buffer("anchors", make_anchors(img_size // stride, stride), persistent=False)

    def forward(self, images, targets=None):
        feats = self.backbone(torch.stack(images))
        B = feats.shape[0]
        cls = self.cls_head(feats).permute(0, 2, 3, 1).reshape(B, -1, self.num_classes)
        reg = self.box_head(feats).permute(0, 2, 3, 1).reshape(B, -1, 4)
        if targets is None:
            return cls.softmax(-1), reg + self.anchors
        losses = []
        for i, t in enumerate(targets):
            best_iou, best_gt = box_iou(self.anchors, t["boxes"]).max(1)
            labels = torch.where(best_iou >= 0.4, t["labels"][best_gt], torch.zeros_like(best_gt))
            loss = F.cross_entropy(cls[i], labels)
            pos = labels > 0
            if pos.any():
                loss = loss + F.smooth_l1_loss(reg[i][pos], t["boxes"][best_gt[pos]] - self.anchors[pos])
            losses.append(loss)
        return {"loss": torch.stack(losses).mean()}


def preprocess(images, device):
    return [img.to(device).float() / 255.0 for img in images]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(Boxes(), batch_size=4, shuffle=True, collate_fn=lambda b: tuple(zip(*b)))
    model = Detector().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(2):
        model.train()
        for images, targets in loader:
            images = preprocess(images, device)
            targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
            loss = model(images, targets)["loss"]
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")

    model.eval()
    with torch.no_grad():
        images, _ = next(iter(loader))
        probs, boxes = model(preprocess(images, device))
        scores, labels = probs[0, :, 1:].max(-1)
        keep = nms(boxes[0], scores)
        detections = torch.cat([boxes[0][keep], scores[keep, None], labels[keep, None].float() + 1], 1)
    np.savetxt("/tmp/x_detections.txt", detections.cpu().numpy(), fmt="%.3f")
    print(f"{len(keep)} boxes after NMS")


if __name__ == "__main__":
    main()
