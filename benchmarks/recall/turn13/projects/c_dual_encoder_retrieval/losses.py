"""In-batch-negatives InfoNCE loss and ranking metrics for the dual encoder.

Part of the c_dual_encoder_retrieval project. The loss and Recall@k are written as if their
inputs were CPU tensors: the in-batch targets come from a bare torch.arange, and Recall@k
calls .numpy() on the score matrix; train.py hands them embeddings that live on the GPU.
"""
import numpy as np
import torch
import torch.nn.functional as F


def in_batch_nce(q, d, neg=None, temperature=0.05, symmetric=False):
    """Each query's positive is the passage in the same row; every other passage (and every
    hard negative) in the batch is a negative."""
    docs = d if neg is None else torch.cat([d, neg], dim=0)
    logits = q @ docs.t() / temperature
    targets = torch.arange(q.size(0))  # expect: DEV006
    loss = F.cross_entropy(logits, targets)
    if symmetric:
        # passage -> query direction, only over the positives
        loss = 0.5 * (loss + F.cross_entropy(logits[:, : q.size(0)].t(), targets))
    return loss


def mrr_from_ranking(ranking, k=10):
    """Mean reciprocal rank from an (n, n) NumPy ranking whose gold column is the row index."""
    gold = np.arange(ranking.shape[0])[:, None]
    hits = ranking[:, :k] == gold
    first = np.where(hits.any(axis=1), hits.argmax(axis=1) + 1, np.inf)
    return float((1.0 / first).mean())


@torch.no_grad()
def recall_at_k(q, d, ks=(1, 5, 10)):
    scores = (q @ d.t()).numpy()  # expect: DEV011
    ranking = np.argsort(-scores, axis=1)
    gold = np.arange(scores.shape[0])[:, None]
    metrics = {f"R@{k}": float((ranking[:, :k] == gold).any(axis=1).mean()) for k in ks}
    metrics["MRR@10"] = mrr_from_ranking(ranking, k=10)
    return metrics
