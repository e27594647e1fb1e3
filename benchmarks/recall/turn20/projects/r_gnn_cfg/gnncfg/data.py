from dataclasses import dataclass
from typing import List

import torch


@dataclass
class GraphSample:
    x: torch.Tensor           # [num_nodes, F]
    edge_index: torch.Tensor  # [2, num_edges]
    y: int


@dataclass
class GraphBatch:
    x: torch.Tensor
    edge_index: torch.Tensor
    batch: torch.Tensor
    y: torch.Tensor
    num_graphs: int

    def to(self, device):
        return GraphBatch(self.x.to(device), self.edge_index.to(device), self.batch.to(device),
                          self.y.to(device), self.num_graphs)


def make_dataset(n, num_features, num_classes, seed=0) -> List[GraphSample]:
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        nodes = int(torch.randint(4, 12, (1,), generator=g))
        e = torch.randint(0, nodes, (2, nodes * 2), generator=g)
        x = torch.randn(nodes, num_features, generator=g)
        out.append(GraphSample(x, torch.cat([e, e.flip(0)], 1), int(x[:, 0].sum() > 0)))
    return out


def collate_graphs(samples: List[GraphSample]) -> GraphBatch:
    xs, eis, batch, offset = [], [], [], 0
    for i, s in enumerate(samples):
        xs.append(s.x)
        eis.append(s.edge_index + offset)
        batch.append(torch.full((s.x.size(0),), i, dtype=torch.long))
        offset += s.x.size(0)
    return GraphBatch(torch.cat(xs), torch.cat(eis, 1), torch.cat(batch),
                      torch.tensor([s.y for s in samples]), len(samples))
