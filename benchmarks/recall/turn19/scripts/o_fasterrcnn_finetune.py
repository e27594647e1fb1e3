# Fine-tune torchvision's Faster R-CNN (mobilenet 320) on a synthetic "colored squares"
# dataset, then report a crude recall@0.5 on a held-out split.
import random

import numpy as np
import torch
import torchvision
from torch.utils.data import DataLoader, Dataset
from torchvision.models.detection import fasterrcnn_mobilenet_v3_large_320_fpn
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor


class SquaresDataset(Dataset):
    """Each image has 1-3 squares, class 1 = red, class 2 = green."""

    def __init__(self, n, size=160, seed=0):
        self.n, self.size = n, size
        self.rng = random.Random(seed)
        self.items = [self._make() for _ in range(n)]

    def _make(self):
        img = np.zeros((3, self.size, self.size), dtype=np.float32)
        boxes, labels = [], []
        for _ in range(self.rng.randint(1, 3)):
            s = self.rng.randint(20, 50)
            x0 = self.rng.randint(0, self.size - s)
            y0 = self.rng.randint(0, self.size - s)
            cls = self.rng.randint(1, 2)
            img[cls - 1, y0:y0 + s, x0:x0 + s] = 1.0
            boxes.append([x0, y0, x0 + s, y0 + s])
            labels.append(cls)
        return img, np.array(boxes, dtype=np.float32), np.array(labels, dtype=np.int64)

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        img, boxes, labels = self.items[idx]
        target = {
            "boxes": torch.from_numpy(boxes),
            "labels": torch.from_numpy(labels),
            "image_id": torch.tensor(idx),
        }
        return torch.from_numpy(img), target


def collate_fn(batch):
    return tuple(zip(*batch))


def get_model(num_classes):
    model = fasterrcnn_mobilenet_v3_large_320_fpn(weights=None, weights_backbone=None)
    in_features = model.roi_heads.box_predictor.cls_score.in_features
    model.roi_heads.box_predictor = FastRCNNPredictor(in_features, num_classes)
    return model


def match_boxes(pred, gt, thr=0.5):
    if len(pred) == 0:
        return 0
    ious = torchvision.ops.box_iou(torch.as_tensor(gt), torch.as_tensor(pred))
    return int((ious.max(dim=1).values >= thr).sum())


def train_one_epoch(model, optimizer, loader, device, epoch):
    model.train()
    for it, (images, targets) in enumerate(loader):
        images = [img.to(device) for img in images]
        loss_dict = model(images, targets)  # expect: DEV002
        losses = sum(loss for loss in loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        if it % 5 == 0:
            print(f"[{epoch}] iter {it} loss {losses.item():.3f}")


@torch.no_grad()
def evaluate(model, loader, device, score_thresh=0.5):
    model.eval()
    hits, total = 0, 0
    for images, targets in loader:
        images = [img.to(device) for img in images]
        outputs = model(images)
        for out, tgt in zip(outputs, targets):
            keep = out["scores"] > score_thresh
            boxes = out["boxes"][keep].numpy()  # expect: DEV011
            gt = tgt["boxes"].numpy()
            hits += match_boxes(boxes, gt)
            total += len(gt)
    return hits / max(total, 1)


def main():
    device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    train_ds, val_ds = SquaresDataset(24, seed=0), SquaresDataset(8, seed=1)
    train_loader = DataLoader(train_ds, batch_size=4, shuffle=True, collate_fn=collate_fn)
    val_loader = DataLoader(val_ds, batch_size=4, collate_fn=collate_fn)

    model = get_model(num_classes=3)
    model.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.005, momentum=0.9, weight_decay=5e-4)

    for epoch in range(2):
        train_one_epoch(model, optimizer, train_loader, device, epoch)
        print(f"epoch {epoch} recall@0.5 = {evaluate(model, val_loader, device):.3f}")


if __name__ == "__main__":
    main()
