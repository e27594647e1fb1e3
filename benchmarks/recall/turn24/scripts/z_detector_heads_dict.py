"""A one-level anchor detector trained on synthetic boxes (targets as a list of dicts)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

STRIDE = 8


class Boxes(Dataset):
    def __init__(self, n=32, size=64, num_classes=3):
        self.n, self.size, self.num_classes = n, size, num_classes

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        img = torch.rand(3, self.size, self.size, generator=g) * 0.1
        k = int(torch.randint(1, 3, (1,), generator=g))
        boxes = []
        for _ in range(k):
            x0, y0 = torch.randint(0, self.size - 20, (2,), generator=g).tolist()
            w, h = torch.randint(8, 20, (2,), generator=g).tolist()
            img[:, y0:y0 + h, x0:x0 + w] += 0.8
            boxes.append([x0, y0, x0 + w, y0 + h])
        labels = torch.randint(1, self.num_classes + 1, (k,), generator=g)
        return img, {"boxes": torch.tensor(boxes, dtype=torch.float32), "labels": labels}


class TinyDetector(nn.Module):
    def __init__(self, num_classes=3, num_anchors=3):
        super().__init__()
        self.num_classes, self.A = num_classes, num_anchors
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                                      nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU())
        self.heads = {  # expect: DEV009
            "cls": nn.Conv2d(32, num_anchors * (num_classes + 1), 1),
            "box": nn.Conv2d(32, num_anchors * 4, 1),
        }

    def forward(self, images, targets=None):
        feat = self.backbone(torch.stack(images))
        B, _, H, W = feat.shape
        cls = self.heads["cls"](feat).permute(0, 2, 3, 1).reshape(B, H * W * self.A, -1)
        box = self.heads["box"](feat).permute(0, 2, 3, 1).reshape(B, H * W * self.A, 4)
        if targets is None:
            return cls.softmax(-1), box
        cls_losses, box_losses = [], []
        for b, t in enumerate(targets):
            cls_target = torch.zeros(H * W * self.A, dtype=torch.long, device=feat.device)
            for j, (x0, y0, x1, y1) in enumerate(t["boxes"].tolist()):
                cx, cy = int((x0 + x1) / 2) // STRIDE, int((y0 + y1) / 2) // STRIDE
                idx = (cy * W + cx) * self.A
                cls_target[idx] = t["labels"][j]
                box_losses.append(F.smooth_l1_loss(box[b, idx] * STRIDE, t["boxes"][j]))
            cls_losses.append(F.cross_entropy(cls[b], cls_target))
        return {"loss_cls": torch.stack(cls_losses).mean(), "loss_box": torch.stack(box_losses).mean()}


def collate(batch):
    return tuple(zip(*batch))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyDetector().to(device)
    params = list(model.parameters()) + [p for h in model.heads.values() for p in h.parameters()]
    opt = torch.optim.SGD(params, lr=0.01, momentum=0.9)
    loader = DataLoader(Boxes(), batch_size=4, shuffle=True, collate_fn=collate)
    for epoch in range(2):
        for images, targets in loader:
            images = [img.to(device) for img in images]
            loss_dict = model(images, targets)  # expect: DEV002
            loss = sum(loss_dict.values())
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}", {k: round(v.item(), 3) for k, v in loss_dict.items()})


if __name__ == "__main__":
    main()
