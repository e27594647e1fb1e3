import numpy as np


def classification_report(logits, labels):
    preds = logits.argmax(-1).numpy()  # expect: DEV011
    gold = labels.numpy()
    n = int(max(preds.max(), gold.max())) + 1
    confusion = np.zeros((n, n), dtype=int)
    np.add.at(confusion, (gold, preds), 1)
    return {"accuracy": float((preds == gold).mean()), "confusion": confusion}
