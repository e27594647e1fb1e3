"""Fine-tune torchvision Faster R-CNN (mobilenet v3 FPN) on a 3-class toy dataset.

Follows the torchvision detection tutorial: images as a list of CHW tensors, targets as
a list of dicts with "boxes" (x1, y1, x2, y2) and "labels".
"""
import argparse

import torch
import torchvision
from torch.utils.data import DataLoader, Dataset
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor


class ToyShapes(Dataset):
    def __init__(self, n=40, size=160, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            img = torch.rand(3, size, size, generator=g) * 0.2
            k = int(torch.randint(1, 3, (1,), generator=g))
            boxes, labels = [], []
            for _ in range(k):
                w, h = torch.randint(20, 60, (2,), generator=g).tolist()
                x, y = torch.randint(0, size - 60, (2,), generator=g).tolist()
                c = int(torch.randint(1, 3, (1,), generator=g))
                img[c - 1, y:y + h, x:x + w] = 1.0
                boxes.append([x, y, x + w, y + h])
                labels.append(c)
            target = {"boxes": torch.tensor(boxes, dtype=torch.float32),
                      "labels": torch.tensor(labels, dtype=torch.int64)}
            self.items.append((img, target))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


def collate_fn(batch):
    return tuple(zip(*batch))


def build_model(num_classes, device):
    model = torchvision.models.detection.fasterrcnn_mobilenet_v3_large_fpn(
        weights=None, weights_backbone=None, min_size=160, max_size=160)
    model.to(device)
    # replace the pre-trained head with a new one for our classes
    in_features = model.roi_heads.box_predictor.cls_score.in_features
    model.roi_heads.box_predictor = FastRCNNPredictor(in_features, num_classes)  # expect: DEV015
    return model


def train_one_epoch(model, optimizer, data_loader, device, epoch, print_freq=5):
    model.train()
    for i, (images, targets) in enumerate(data_loader):
        images = list(image.to(device) for image in images)
        loss_dict = model(images, targets)  # expect: DEV002
        losses = sum(loss for loss in loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        if i % print_freq == 0:
            print(f"epoch {epoch} iter {i} loss {losses.item():.3f}",
                  {k: round(v.item(), 3) for k, v in loss_dict.items()})


@torch.no_grad()
def predict(model, images, device, score_thr=0.5):
    model.eval()
    outputs = model([img.to(device) for img in images])
    return [{k: v[o["scores"] > score_thr].cpu() for k, v in o.items()} for o in outputs]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.005)
    args = parser.parse_args()

    device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    dataset = ToyShapes()
    data_loader = DataLoader(dataset, batch_size=4, shuffle=True, collate_fn=collate_fn)

    model = build_model(num_classes=3, device=device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9, weight_decay=0.0005)

    for epoch in range(args.epochs):
        train_one_epoch(model, optimizer, data_loader, device, epoch)

    imgs, _ = collate_fn([dataset[0], dataset[1]])
    print(predict(model, imgs, device))


if __name__ == "__main__":
    main()
