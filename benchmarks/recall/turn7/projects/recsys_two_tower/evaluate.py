"""Hit rate of the positive item among the scored candidates."""
import torch


@torch.no_grad()
def hit_rate(model, loader, device):
    model.eval()
    hits = total = 0
    for users, items, labels in loader:
        users = users.to(device)
        scores = model(users, items)  # expect: DEV002
        pred = (scores.sigmoid() > 0.5).float().cpu()
        hits += (pred == labels).sum().item()
        total += labels.numel()
    return hits / total
