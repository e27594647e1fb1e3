import torch

from utils.dist import all_reduce_sum
from utils.metrics import per_class_report


def move(batch, device):
    return {k: v.to(device, non_blocking=True) for k, v in batch.items()}


def train_one_epoch(model, loader, criterion, optimizer, device):
    model.train()
    stats = torch.zeros(2, device=device)
    for batch in loader:
        batch = move(batch, device)
        loss = criterion(model(batch["image"]), batch["label"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stats += torch.stack([loss.detach(), torch.ones((), device=device)])
    stats = all_reduce_sum(stats)
    return (stats[0] / stats[1]).item()


@torch.no_grad()
def evaluate(model, loader, device, num_classes):
    model.eval()
    confusion = torch.zeros(num_classes, num_classes, dtype=torch.long, device=device)
    for batch in loader:
        batch = move(batch, device)
        preds = model(batch["image"]).argmax(dim=1)
        idx = batch["label"] * num_classes + preds
        confusion += torch.bincount(idx, minlength=num_classes ** 2).view(num_classes, -1)
    return per_class_report(all_reduce_sum(confusion))
