import numpy as np
import torch
import torch.nn as nn


def move(batch, device):
    return [t.to(device, non_blocking=True) for t in batch]


def train_epoch(model, loader, criterion, optimizer, device):
    model.train()
    total = 0.0
    for cats, nums, y in loader:
        cats, nums, y = move((cats, nums, y), device)
        loss = criterion(model(cats, nums), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        total += loss.item() * y.size(0)
    return total / len(loader.dataset)


@torch.no_grad()
def predict_proba(model, loader, device):
    model.eval()
    probs, labels = [], []
    for cats, nums, y in loader:
        logits = model(cats.to(device), nums.to(device))
        probs.append(logits.softmax(-1)[:, 1].detach().cpu())
        labels.append(y)
    return torch.cat(probs).numpy(), torch.cat(labels).numpy()


def lift_table(probs, labels, n_bins=5):
    order = np.argsort(-probs)
    chunks = np.array_split(labels[order], n_bins)
    base = labels.mean()
    return [float(c.mean() / base) for c in chunks]


def save(path, model, optimizer, epoch, score):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch, "score": score}, path)


def load(path, model, optimizer, device):
    """Model must already be on `device` so the optimizer state is cast next to its params."""
    state = torch.load(path, map_location=device)
    model.load_state_dict(state["model"])
    if optimizer is not None:
        optimizer.load_state_dict(state["optimizer"])
    return state["epoch"], state["score"]
