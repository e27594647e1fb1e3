import numpy as np
import torch
import torch.nn.functional as F


def move_to_device(batch, device):
    return {k: v.to(device, non_blocking=True) if torch.is_tensor(v) else v for k, v in batch.items()}


def train_one_epoch(model, loader, optimizer, device, grad_clip=1.0):
    model.train()
    total, n = 0.0, 0
    for batch in loader:
        batch = move_to_device(batch, device)
        labels = batch.pop("labels")
        logits = model(**batch)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        total += loss.item() * labels.size(0)
        n += labels.size(0)
    return total / n


@torch.no_grad()
def evaluate(model, loader, device, num_answers):
    model.eval()
    preds, golds = [], []
    for batch in loader:
        batch = move_to_device(batch, device)
        labels = batch.pop("labels")
        preds.append(model(**batch).argmax(-1).cpu())
        golds.append(labels.cpu())
    preds = torch.cat(preds).numpy()
    golds = torch.cat(golds).numpy()
    confusion = np.zeros((num_answers, num_answers), dtype=np.int64)
    np.add.at(confusion, (golds, preds), 1)
    return float((preds == golds).mean()), confusion
