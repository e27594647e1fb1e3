"""Two-tower (dual) encoder: a query tower and a passage tower over a shared embedding table.

Part of the c_dual_encoder_retrieval project. The model itself is device-clean: everything
it creates follows the input ids' device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, embedding, dim=64, out_dim=48):
        super().__init__()
        self.embedding = embedding
        self.mlp = nn.Sequential(nn.Linear(dim, 128), nn.GELU(), nn.Linear(128, out_dim))

    def forward(self, ids):
        mask = ids.ne(0).unsqueeze(-1).float()
        pooled = (self.embedding(ids) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return F.normalize(self.mlp(pooled), dim=-1)


class DualEncoder(nn.Module):
    def __init__(self, vocab, dim=64, out_dim=48):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim, padding_idx=0)
        self.query_tower = Tower(self.embedding, dim, out_dim)
        self.doc_tower = Tower(self.embedding, dim, out_dim)

    def encode_query(self, ids):
        return self.query_tower(ids)

    def encode_doc(self, ids):
        return self.doc_tower(ids)

    def forward(self, q_ids, d_ids, neg_ids=None):
        q = self.encode_query(q_ids)
        d = self.encode_doc(d_ids)
        n = self.encode_doc(neg_ids) if neg_ids is not None else None
        return q, d, n
