import numpy as np
import torch

from .data import to_device


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    total = 0.0
    for batch in loader:
        batch = to_device(batch, device)
        logits = model(batch["input_ids"], batch["attention_mask"])
        loss = model.loss(logits, batch["labels"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


@torch.no_grad()
def evaluate(model, loader, device, num_classes):
    model.eval()
    preds, golds = [], []
    for batch in loader:
        batch = to_device(batch, device)
        logits = model(batch["input_ids"], batch["attention_mask"])
        preds.append(logits.argmax(-1).cpu().numpy())
        golds.append(batch["labels"].cpu().numpy())
    preds, golds = np.concatenate(preds), np.concatenate(golds)
    recalls = [(preds[golds == c] == c).mean() for c in range(num_classes) if (golds == c).any()]
    return {"acc": float((preds == golds).mean()), "balanced_acc": float(np.mean(recalls))}
