import numpy as np
import torch

from utils.dist import reduce_mean


def train_one_epoch(model, loader, criterion, optimizer, device):
    model.train()
    total = 0.0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return reduce_mean(total / len(loader), device)


@torch.no_grad()
def evaluate(model, loader, device, num_classes):
    model.eval()
    confusion = np.zeros((num_classes, num_classes), dtype=np.int64)
    for images, labels in loader:
        preds = model(images.to(device)).argmax(dim=1)
        np.add.at(confusion, (labels.numpy(), preds.numpy()), 1)  # expect: DEV011
    acc = np.trace(confusion) / max(1, confusion.sum())
    return reduce_mean(acc, device)
