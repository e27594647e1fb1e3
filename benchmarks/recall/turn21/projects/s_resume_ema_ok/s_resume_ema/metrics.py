import numpy as np


def summarize(logits, labels):
    preds = logits.argmax(-1).detach().cpu().numpy()
    gold = labels.detach().cpu().numpy()
    recalls = [float((preds[gold == c] == c).mean()) for c in np.unique(gold)]
    return {"acc": round(float((preds == gold).mean()), 3), "balanced": round(float(np.mean(recalls)), 3)}
