"""Train the grid detector, then export detections for a held-out batch."""
import json

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import BATCH_SIZE, EPOCHS, LR, STRIDE, get_device
from data import ShapesDataset, collate, to_device
from model import GridDetector
from postprocess import hit_rate, to_records


def main():
    device = get_device()
    torch.manual_seed(0)
    train_loader = DataLoader(ShapesDataset(128, seed=0), batch_size=BATCH_SIZE, shuffle=True,
                              collate_fn=collate)
    val_batch = collate([ShapesDataset(4, seed=1)[i] for i in range(4)])
    model = GridDetector().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)

    for epoch in range(EPOCHS):
        model.train()
        for batch in train_loader:
            batch = to_device(batch, device)
            out = model(batch["image"])
            cls_loss = F.cross_entropy(out["cls"].flatten(0, 1), batch["labels"].flatten())  # expect: DEV004
            pos = batch["labels"] > 0
            box_loss = F.smooth_l1_loss(out["deltas"][pos], batch["deltas"][pos])  # also: DEV004
            loss = cls_loss + box_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: cls {cls_loss.item():.3f} box {box_loss.item():.3f}")

    model.eval()
    val_inputs = to_device(val_batch, device)
    with torch.no_grad():
        out = model(val_inputs["image"])
    records = to_records(out["boxes"], out["cls"].softmax(-1), range(len(val_batch["image"])))
    print(json.dumps(records[:2], indent=1))
    gt_labels = (val_batch["labels"].max(dim=1).values - 1).numpy()
    gt_boxes = [[float(v) for v in b] for b in gt_from_deltas(val_batch)]
    print(f"hit rate {hit_rate(records, gt_boxes, gt_labels):.2f}")


def gt_from_deltas(batch):
    """Recover ground-truth boxes (pixels) from the encoded per-cell targets (CPU tensors)."""
    boxes = []
    for labels, deltas in zip(batch["labels"], batch["deltas"]):
        cell = int(labels.argmax())
        grid = int(labels.numel() ** 0.5)
        centers = torch.tensor([[(cell % grid + 0.5) * STRIDE, (cell // grid + 0.5) * STRIDE]])
        boxes.append(GridDetector.decode(deltas[cell:cell + 1], centers)[0])
    return torch.stack(boxes)


if __name__ == "__main__":
    main()
