import torch


def drop_edges(edge_index, p):
    keep = torch.rand(edge_index.size(1), device=edge_index.device) >= p
    return edge_index[:, keep]


def mask_features(x, p):
    mask = torch.rand(x.size(1), device=x.device) < p
    return x.masked_fill(mask[None, :], 0.0)


def two_views(x, edge_index, drop_p, mask_p):
    return (mask_features(x, mask_p), drop_edges(edge_index, drop_p)), \
           (mask_features(x, mask_p), drop_edges(edge_index, drop_p))
