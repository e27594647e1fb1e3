import torch


def community_graph(num_nodes, num_classes, feat_dim, p_in=0.05, p_out=0.004, seed=0):
    """Stochastic block model with class-dependent gaussian features (CPU tensors)."""
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, num_classes, (num_nodes,), generator=g)
    same = y[:, None] == y[None, :]
    prob = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = torch.rand(num_nodes, num_nodes, generator=g) < prob
    adj = torch.triu(adj, diagonal=1)
    adj = adj | adj.T
    edge_index = adj.nonzero().T.contiguous()
    centers = torch.randn(num_classes, feat_dim, generator=g)
    x = centers[y] + torch.randn(num_nodes, feat_dim, generator=g)
    return x, edge_index, y


def split_masks(num_nodes, train_frac=0.5, seed=0):
    perm = torch.randperm(num_nodes, generator=torch.Generator().manual_seed(seed))
    cut = int(train_frac * num_nodes)
    return perm[:cut], perm[cut:]
