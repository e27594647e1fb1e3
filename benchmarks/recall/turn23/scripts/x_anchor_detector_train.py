"""Single-level anchor-based detector (RetinaNet-lite) on synthetic boxes.

Targets come from the loader as a list of dicts ({"boxes", "labels"}) per
image, as in torchvision's detection reference scripts.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def make_anchors(feat_size, stride, sizes=(8.0, 16.0)):
    ys, xs = torch.meshgrid(torch.arange(feat_size), torch.arange(feat_size), indexing="ij")
    centres = torch.stack([xs, ys], dim=-1).reshape(-1, 2).float() * stride + stride / 2
    anchors = [torch.cat([centres - s / 2, centres + s / 2], dim=1) for s in sizes]
    return torch.stack(anchors, dim=1).reshape(-1, 4)


class SyntheticBoxes(Dataset):
    def __init__(self, n=16, size=64, seed=0):
        self.g = torch.Generator().manual_seed(seed)
        self.n, self.size = n, size

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        img = torch.rand(3, self.size, self.size, generator=self.g)
        k = int(torch.randint(1, 4, (1,), generator=self.g))
        xy = torch.rand(k, 2, generator=self.g) * (self.size - 20)
        wh = torch.rand(k, 2, generator=self.g) * 12 + 6
        boxes = torch.cat([xy, xy + wh], dim=1)
        labels = torch.randint(1, 3, (k,), generator=self.g)
        return img, {"boxes": boxes, "labels": labels}


def collate(batch):
    return tuple(zip(*batch))


class AnchorDetector(nn.Module):
    def __init__(self, num_classes=3, img_size=64, stride=8):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.num_anchors = 2
        self.num_classes = num_classes
        self.cls_head = nn.Conv2d(32, self.num_anchors * num_classes, 3, padding=1)
        self.box_head = nn.Conv2d(32, self.num_anchors * 4, 3, padding=1)
        self.anchors = make_anchors(img_size // stride, stride)  # expect: DEV010

    def forward(self, images, targets=None):
        feats = self.backbone(torch.stack(images))
        B = feats.shape[0]
        cls = self.cls_head(feats).permute(0, 2, 3, 1).reshape(B, -1, self.num_classes)
        reg = self.box_head(feats).permute(0, 2, 3, 1).reshape(B, -1, 4)
        if targets is None:
            return cls, reg + self.anchors
        cls_losses, box_losses = [], []
        for i, t in enumerate(targets):
            iou = box_iou(self.anchors, t["boxes"])
            best_iou, best_gt = iou.max(dim=1)
            labels = torch.where(best_iou >= 0.4, t["labels"][best_gt], torch.zeros_like(best_gt))
            cls_losses.append(F.cross_entropy(cls[i], labels))
            pos = labels > 0
            if pos.any():
                deltas = t["boxes"][best_gt[pos]] - self.anchors[pos]
                box_losses.append(F.smooth_l1_loss(reg[i][pos], deltas))
        box_loss = torch.stack(box_losses).mean() if box_losses else reg.sum() * 0
        return {"loss_cls": torch.stack(cls_losses).mean(), "loss_box": box_loss}


def main():
    device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    loader = DataLoader(SyntheticBoxes(), batch_size=4, shuffle=True, collate_fn=collate)
    model = AnchorDetector().to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.01, momentum=0.9, weight_decay=1e-4)

    for epoch in range(2):
        model.train()
        for images, targets in loader:
            images = [img.to(device) for img in images]
            targets = [{k: v for k, v in t.items()} for t in targets]
            loss_dict = model(images, targets)  # expect: DEV002
            loss = sum(loss_dict.values())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} " + " ".join(f"{k}={v.item():.3f}" for k, v in loss_dict.items()))


if __name__ == "__main__":
    main()
