import numpy as np


def recall_at_k(scores, users, test_items, train_items, k=10):
    """scores: (n, n_items) tensor; seen training items are masked out before ranking."""
    scores = scores.clone()
    for row, u in enumerate(users.tolist()):
        scores[row, list(train_items[u])] = float("-inf")
    topk = scores.topk(k, dim=1).indices.numpy()  # expect: DEV011
    hits = [test_items[u] in set(row) for u, row in zip(users.tolist(), topk)]
    return float(np.mean(hits))
