"""Fine-tune torchvision Faster R-CNN on a small wheat-head dataset (lists of target dicts)."""
import argparse

import torch
from torch.utils.data import DataLoader, Dataset
from torchvision.models.detection import fasterrcnn_mobilenet_v3_large_fpn


class WheatHeads(Dataset):
    def __init__(self, n=8, size=128):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.targets = []
        for _ in range(n):
            xy = torch.randint(0, size - 32, (3, 2), generator=g).float()
            wh = torch.randint(8, 32, (3, 2), generator=g).float()
            self.targets.append({
                "boxes": torch.cat([xy, xy + wh], dim=1),
                "labels": torch.ones(3, dtype=torch.int64),
            })

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.targets[i]


def collate(batch):
    return tuple(zip(*batch))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    model = fasterrcnn_mobilenet_v3_large_fpn(weights=None, weights_backbone=None, num_classes=2)
    model.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.005, momentum=0.9, weight_decay=1e-4)
    loader = DataLoader(WheatHeads(), batch_size=2, shuffle=True, collate_fn=collate)

    for epoch in range(args.epochs):
        model.train()
        for images, targets in loader:
            images = [img.to(device) for img in images]
            loss_dict = model(images, targets)  # expect: DEV002
            loss = sum(loss_dict.values())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v.item():.3f}" for k, v in loss_dict.items()))

    model.eval()
    with torch.no_grad():
        images, _ = next(iter(loader))
        outputs = model([img.to(device) for img in images])
    for out in outputs:
        keep = out["scores"] > 0.05
        boxes = out["boxes"][keep].numpy()  # expect: DEV011
        print(f"{len(boxes)} boxes, first: {boxes[:1]}")


if __name__ == "__main__":
    main()
