"""Fine-tune torchvision's Faster R-CNN on a toy box dataset and dump predictions to CSV."""
import argparse
import csv

import torch
from torch.utils.data import DataLoader, Dataset
from torchvision.models.detection import fasterrcnn_mobilenet_v3_large_fpn
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor


class ToyBoxes(Dataset):
    def __init__(self, n=32, size=160, num_classes=3):
        self.n, self.size, self.k = n, size, num_classes

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        img = torch.rand(3, self.size, self.size, generator=g)
        x0, y0 = torch.randint(0, self.size // 2, (2,), generator=g).tolist()
        w, h = torch.randint(20, self.size // 2, (2,), generator=g).tolist()
        img[:, y0:y0 + h, x0:x0 + w] *= 0.3
        target = {"boxes": torch.tensor([[x0, y0, x0 + w, y0 + h]], dtype=torch.float32),
                  "labels": torch.tensor([1 + i % (self.k - 1)])}
        return img, target


def detection_collate(batch):
    return tuple(zip(*batch))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--out", default="preds.csv")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = fasterrcnn_mobilenet_v3_large_fpn(weights=None, weights_backbone=None)
    in_f = model.roi_heads.box_predictor.cls_score.in_features
    model.roi_heads.box_predictor = FastRCNNPredictor(in_f, 3)
    model.to(device)

    loader = DataLoader(ToyBoxes(), batch_size=4, shuffle=True, collate_fn=detection_collate)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.SGD(params, lr=0.005, momentum=0.9, weight_decay=5e-4)

    for epoch in range(args.epochs):
        model.train()
        for images, targets in loader:
            images = [img.to(device) for img in images]
            loss_dict = model(images, list(targets))  # expect: DEV002
            loss = sum(loss_dict.values())
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v.item():.3f}" for k, v in loss_dict.items()))

    model.eval()
    with open(args.out, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["image", "x0", "y0", "x1", "y1", "label", "score"])
        with torch.no_grad():
            for idx, (img, _) in enumerate(ToyBoxes(n=8)):
                det = model([img.to(device)])[0]
                boxes = det["boxes"].numpy()  # expect: DEV011
                for b, lab, s in zip(boxes, det["labels"].tolist(), det["scores"].tolist()):
                    writer.writerow([idx, *b.round(1), lab, round(s, 3)])


if __name__ == "__main__":
    main()
