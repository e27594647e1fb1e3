"""Graph node regression/classification with a fixed normalised adjacency kept as a
torch.sparse COO matrix on the model (A_hat = D^-1/2 (A + I) D^-1/2), SGC-style."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018


def ring_of_cliques(n_cliques=6, size=5):
    edges = []
    for c in range(n_cliques):
        base = c * size
        edges += [(base + i, base + j) for i in range(size) for j in range(size) if i != j]
        nxt = ((c + 1) % n_cliques) * size
        edges += [(base, nxt), (nxt, base)]
    n = n_cliques * size
    labels = np.repeat(np.arange(n_cliques) % 3, size)
    return np.array(edges).T, n, labels


def normalised_adjacency(edge_index, n):
    a = np.zeros((n, n), dtype=np.float32)
    a[edge_index[0], edge_index[1]] = 1.0
    a += np.eye(n, dtype=np.float32)
    d_inv_sqrt = 1.0 / np.sqrt(a.sum(1))
    a_hat = d_inv_sqrt[:, None] * a * d_inv_sqrt[None, :]
    idx = np.nonzero(a_hat)
    return np.stack(idx), a_hat[idx]


class SGC(nn.Module):
    def __init__(self, edge_index, n, in_dim, n_classes, k=2):
        super().__init__()
        idx, vals = normalised_adjacency(edge_index, n)
        self.adj = torch.sparse_coo_tensor(torch.from_numpy(idx), torch.from_numpy(vals), (n, n)).coalesce()  # expect: DEV010
        self.k = k
        self.lin = nn.Linear(in_dim, n_classes)

    def forward(self, x):
        for _ in range(self.k):
            x = torch.sparse.mm(self.adj, x)
        return self.lin(x)


def main():
    edge_index, n, labels = ring_of_cliques()
    x = torch.randn(n, 8).to(device)
    y = torch.from_numpy(labels).long().to(device)
    train_mask = torch.zeros(n, dtype=torch.bool)
    train_mask[::2] = True

    model = SGC(edge_index, n, 8, 3).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    for epoch in range(100):
        logits = model(x)
        loss = F.cross_entropy(logits[train_mask], y[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    with torch.no_grad():
        pred = model(x).argmax(1)
    test_pred = pred[~train_mask].numpy()  # expect: DEV011
    test_true = labels[~train_mask.numpy()]
    print("loss", round(loss.item(), 4), "test acc", float((test_pred == test_true).mean()))


if __name__ == "__main__":
    main()
