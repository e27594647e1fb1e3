"""Train the segmentation network and report mean IoU."""
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from config import SegConfig
from metrics import class_weights, confusion, miou
from model import DiceCE, SegNet


def synthetic(cfg, n, seed):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 3, cfg.image_size, cfg.image_size, generator=g)
    masks = (images[:, 0] * cfg.classes).long().clamp(max=cfg.classes - 1)
    masks[:, :2] = cfg.ignore_index
    return images, masks


def main():
    cfg = SegConfig()
    device = cfg.device
    xtr, ytr = synthetic(cfg, 256, 0)
    xva, yva = synthetic(cfg, 64, 1)
    model = SegNet(cfg.classes).to(device)
    criterion = DiceCE(cfg.classes, class_weights(ytr, cfg.classes, cfg.ignore_index), cfg.ignore_index).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(cfg.epochs):
        model.train()
        for x, y in DataLoader(TensorDataset(xtr, ytr), batch_size=cfg.batch_size, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        cm = np.zeros((cfg.classes, cfg.classes), dtype=np.int64)
        with torch.no_grad():
            for x, y in DataLoader(TensorDataset(xva, yva), batch_size=cfg.batch_size):
                pred = model(x.to(device)).argmax(1)
                cm += confusion(pred, y, cfg.classes, cfg.ignore_index)
        print(f"epoch {epoch}: loss {loss.item():.3f} mIoU {miou(cm):.3f}")


if __name__ == "__main__":
    main()
