"""Training entry point of the segmentation project: model from models.py, evaluation metrics
from metrics.py; --deep-supervision adds an auxiliary head on the encoder features.

Thread: https://github.com/huggingface/pytorch-image-models/pull/2743 (preserve the classifier
head's device on reset: a head rebuilt after the model moved is created on the CPU).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from metrics import confusion_matrix, mean_iou
from models import PriorUNet

NUM_CLASSES = 4


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-deep-supervision", dest="deep_supervision", action="store_false")
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    images = torch.rand(96, 3, 32, 32)
    masks = torch.randint(0, NUM_CLASSES, (96, 32, 32))
    class_freq = torch.bincount(masks[:80].flatten(), minlength=NUM_CLASSES).tolist()
    model = PriorUNet(NUM_CLASSES, class_freq).to(device)
    if args.deep_supervision:
        model.aux_head = nn.Conv2d(32, NUM_CLASSES, 1)  # expect: DEV015
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    train = DataLoader(TensorDataset(images[:80], masks[:80]), batch_size=8, shuffle=True)
    val = DataLoader(TensorDataset(images[80:], masks[80:]), batch_size=8)
    for epoch in range(args.epochs):
        model.train()
        for x, y in train:
            x, y = x.to(device), y.to(device)
            out = model(x)
            if isinstance(out, tuple):
                loss = F.cross_entropy(out[0], y) + 0.4 * F.cross_entropy(out[1], y)
            else:
                loss = F.cross_entropy(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        cm = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)
        with torch.no_grad():
            for x, y in val:
                x, y = x.to(device), y.to(device)
                cm += confusion_matrix(model(x), y, NUM_CLASSES)
        print(f"epoch {epoch}: loss {loss.item():.3f} mIoU {mean_iou(cm):.3f}")


if __name__ == "__main__":
    main()
