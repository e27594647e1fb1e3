"""Synthetic molecular graphs and a batching collate_fn given to the loader through functools.partial."""
from functools import partial

import torch
from torch.utils.data import DataLoader, Dataset


class RandomGraphs(Dataset):
    def __init__(self, n=512, n_atom_types=10, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.graphs = []
        for _ in range(n):
            k = int(torch.randint(5, 20, (1,), generator=g))
            atoms = torch.randint(0, n_atom_types, (k,), generator=g)
            edges = torch.randint(0, k, (2, 2 * k), generator=g)
            self.graphs.append((atoms, edges, atoms.float().mean().unsqueeze(0), f"mol-{len(self.graphs)}"))

    def __len__(self):
        return len(self.graphs)

    def __getitem__(self, i):
        return self.graphs[i]


def collate_graphs(batch, self_loops=True):
    atoms, edges, graph_ids, targets, names, offset = [], [], [], [], [], 0
    for gi, (a, e, y, name) in enumerate(batch):
        if self_loops:
            loop = torch.arange(len(a))
            e = torch.cat([e, torch.stack([loop, loop])], dim=1)
        atoms.append(a)
        edges.append(e + offset)
        graph_ids.append(torch.full((len(a),), gi))
        targets.append(y)
        names.append(name)
        offset += len(a)
    return {"atoms": torch.cat(atoms), "edge_index": torch.cat(edges, 1), "graph_ids": torch.cat(graph_ids),
            "y": torch.cat(targets), "names": names, "n_graphs": len(batch)}


def make_loader(split, batch_size):
    ds = RandomGraphs(seed={"train": 0, "val": 1}[split])
    return DataLoader(ds, batch_size=batch_size, shuffle=split == "train", collate_fn=partial(collate_graphs, self_loops=True))
