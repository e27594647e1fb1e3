"""Token- and sequence-level accuracy, computed in NumPy."""
import numpy as np


def accuracies(pred_ids, target_ids, pad_idx=0):
    pred = pred_ids.detach().cpu().numpy()
    gold = target_ids.detach().cpu().numpy()
    mask = gold != pad_idx
    token_acc = float((pred == gold)[mask].mean())
    seq_acc = float(np.all((pred == gold) | ~mask, axis=1).mean())
    return token_acc, seq_acc
