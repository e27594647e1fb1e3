"""Ranking metrics for the recommender."""
import numpy as np


def hit_rate_and_ndcg(scores, k=10):
    """scores: [B, 1 + negatives], the positive in column 0."""
    order = np.argsort(-np.asarray(scores), axis=1)  # expect: DEV011
    rank = np.argmax(order == 0, axis=1)
    hits = rank < k
    ndcg = np.where(hits, 1.0 / np.log2(rank + 2), 0.0)
    return float(hits.mean()), float(ndcg.mean())
