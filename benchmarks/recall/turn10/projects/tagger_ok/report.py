"""Per-tag precision and recall for the tagger, computed with NumPy on host copies of the device
predictions.

Thread: https://github.com/udacity/deep-learning-v2-pytorch/pull/243 (move the tensors back to the
CPU before converting them).
"""
import numpy as np


def per_tag_report(logits, tags, num_tags, pad_tag=-100):
    pred = logits.argmax(-1).cpu().numpy().ravel()
    gold = tags.cpu().numpy().ravel()
    keep = gold != pad_tag
    pred, gold = pred[keep], gold[keep]
    rows = []
    for t in range(num_tags):
        tp = np.sum((pred == t) & (gold == t))
        rows.append((t, tp / max(np.sum(pred == t), 1), tp / max(np.sum(gold == t), 1)))
    return rows
