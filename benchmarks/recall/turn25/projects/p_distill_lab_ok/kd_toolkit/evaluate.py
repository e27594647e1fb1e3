import numpy as np
import torch


@torch.no_grad()
def confusion_report(model, loader, device, num_classes):
    model.eval()
    confusion = np.zeros((num_classes, num_classes), dtype=np.int64)
    for ids, labels in loader:
        logits = model(ids.to(device))
        pred = logits.argmax(dim=-1).cpu().numpy()
        np.add.at(confusion, (labels.numpy(), pred), 1)
    per_class = confusion.diagonal() / np.maximum(confusion.sum(1), 1)
    return {"accuracy": float(confusion.trace() / confusion.sum()), "per_class_recall": per_class.round(3).tolist()}
