"""Offline retrieval metrics: recall@k and NDCG@k of the held-out item of every user.

Thread: https://github.com/xiaxin1998/DHCN/issues/14 (TypeError: can't convert cuda:0 device
type tensor to numpy, from NumPy code applied to the model's scores).
"""
import numpy as np


def recall_and_ndcg(scores, held_out, k=10):
    topk = scores.topk(k, dim=1).indices.numpy()  # expect: DEV011
    target = held_out.numpy()[:, None]
    hits = topk == target
    ranks = hits.argmax(1)
    recall = hits.any(1).mean()
    ndcg = np.where(hits.any(1), 1.0 / np.log2(ranks + 2), 0.0).mean()
    return float(recall), float(ndcg)
