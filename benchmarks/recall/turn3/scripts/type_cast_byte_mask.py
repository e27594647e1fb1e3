"""Pointer-network style decoder: already-visited nodes are masked out with masked_fill."""
import torch
import torch.nn as nn


class PointerDecoder(nn.Module):
    def __init__(self, dim=128):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)

    def forward(self, nodes, steps):
        b, n, _ = nodes.shape
        keys = self.k(nodes)
        visited = torch.zeros(b, n, dtype=torch.bool, device=nodes.device)
        query = nodes.mean(1)
        tour = []
        for _ in range(steps):
            scores = torch.einsum("bd,bnd->bn", self.q(query), keys)
            scores = scores.masked_fill(visited.type(torch.ByteTensor).bool(), float("-inf"))  # expect: DEV021
            choice = scores.argmax(-1)
            tour.append(choice)
            visited = visited.scatter(1, choice[:, None], True)
            query = nodes[torch.arange(b, device=nodes.device), choice]
        return torch.stack(tour, 1)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dec = PointerDecoder().to(device)
    print(dec(torch.randn(2, 10, 128, device=device), 10))
