"""Synthetic stochastic-block-model graph with noisy one-hot features; everything is built on the CPU."""
import torch
import torch.nn.functional as F


def build_graph(cfg):
    g = torch.Generator().manual_seed(cfg.seed)
    y = torch.randint(0, cfg.num_classes, (cfg.num_nodes,), generator=g)
    p = torch.where(y[:, None] == y[None, :], 0.06, 0.004)
    adj = torch.rand(cfg.num_nodes, cfg.num_nodes, generator=g) < p
    adj = (adj | adj.T).fill_diagonal_(False)
    edge_index = adj.nonzero().T.contiguous()
    x = 0.8 * torch.randn(cfg.num_nodes, cfg.num_feats, generator=g) + F.one_hot(y, cfg.num_feats).float()
    perm = torch.randperm(cfg.num_nodes, generator=g)
    n_train = int(0.6 * cfg.num_nodes)
    return x, edge_index, y, perm[:n_train], perm[n_train:]
