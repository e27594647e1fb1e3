import math

import numpy as np
import torch


def ranking_metrics(scores, targets, k=10):
    """scores: (B, n_items) on any device; targets: (B,) on the same device."""
    scores = scores.clone()
    scores[:, 0] = float("-inf")
    topk = scores.topk(k, dim=1).indices
    hits = topk == targets.unsqueeze(1)
    ranks = hits.float().argmax(1)
    found = hits.any(1)
    discounts = 1.0 / torch.log2(torch.arange(2, k + 2, device=scores.device, dtype=torch.float))
    ndcg = torch.where(found, discounts[ranks], torch.zeros_like(discounts[ranks]))
    return {"hit": found.float().mean().item(), "ndcg": ndcg.mean().item()}


def rank_histogram(scores, targets, bins=(1, 5, 10, 50)):
    target_scores = scores.gather(1, targets.unsqueeze(1))
    ranks = (scores > target_scores).sum(1).cpu().numpy() + 1
    edges = np.array((0,) + tuple(bins) + (math.inf,))
    return np.histogram(ranks, bins=edges)[0]
