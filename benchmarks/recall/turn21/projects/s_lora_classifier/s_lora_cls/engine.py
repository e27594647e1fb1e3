import torch
import torch.nn.functional as F

from .data import move_inputs
from .metrics import classification_report


def train_epoch(model, loader, optimizer, device):
    model.train()
    total, n = 0.0, 0
    for batch in loader:
        inputs, labels = move_inputs(batch, device)
        logits = model(**inputs)
        loss = F.cross_entropy(logits, labels)  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * logits.size(0)
        n += logits.size(0)
    return total / max(n, 1)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    all_logits, all_labels = [], []
    for batch in loader:
        inputs, labels = move_inputs(batch, device)
        all_logits.append(model(**inputs))
        all_labels.append(labels)
    return classification_report(torch.cat(all_logits), torch.cat(all_labels))
