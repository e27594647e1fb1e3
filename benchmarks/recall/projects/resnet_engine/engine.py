"""Training and evaluation loops."""
import numpy as np
import torch


def train_one_epoch(model, loader, criterion, optimizer, device, epoch):
    model.train()
    running = 0.0
    for step, (images, targets) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        outputs = model(images)
        loss = criterion(outputs, targets)  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(f"epoch {epoch}: train loss {running / max(1, len(loader)):.4f}")
    return running / max(1, len(loader))


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    all_preds, all_targets = [], []
    for images, targets in loader:
        images = images.to(device)
        logits = model(images)
        all_preds.append(logits.argmax(dim=1).numpy())  # expect: DEV011
        all_targets.append(targets.numpy())
    preds = np.concatenate(all_preds)
    labels = np.concatenate(all_targets)
    acc = float((preds == labels).mean())
    print(f"val accuracy {acc:.3f}")
    return acc
