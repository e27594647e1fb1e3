from dataclasses import dataclass

import torch


@dataclass
class Graph:
    x: torch.Tensor
    edge_index: torch.Tensor
    y: torch.Tensor
    train_mask: torch.Tensor
    val_mask: torch.Tensor
    test_mask: torch.Tensor

    def to(self, device):
        return Graph(**{name: t.to(device) for name, t in vars(self).items()})

    @property
    def num_nodes(self):
        return self.x.size(0)


def synthetic_citation_graph(n_nodes, n_classes, n_feats, seed=0, p_in=0.06, p_out=0.004):
    """Stochastic block model with bag-of-words-like sparse features."""
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, n_classes, (n_nodes,), generator=g)
    same = y.unsqueeze(0) == y.unsqueeze(1)
    prob = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = torch.triu(torch.rand(n_nodes, n_nodes, generator=g) < prob, diagonal=1)
    src, dst = adj.nonzero(as_tuple=True)
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)

    topic_words = torch.rand(n_classes, n_feats, generator=g) < 0.25
    noise = torch.rand(n_nodes, n_feats, generator=g) < 0.05
    keep = torch.rand(n_nodes, n_feats, generator=g) < 0.6
    x = ((topic_words[y] & keep) | noise).float()

    perm = torch.randperm(n_nodes, generator=g)
    n_train, n_val = n_nodes // 5, n_nodes // 5
    masks = [torch.zeros(n_nodes, dtype=torch.bool) for _ in range(3)]
    masks[0][perm[:n_train]] = True
    masks[1][perm[n_train:n_train + n_val]] = True
    masks[2][perm[n_train + n_val:]] = True
    return Graph(x, edge_index, y, *masks)
