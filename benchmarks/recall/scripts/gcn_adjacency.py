"""Two-layer graph convolutional network (Kipf & Welling) for node classification on a random graph."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, adj):
        return adj @ (x @ self.weight)


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout=0.5):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.dropout(F.relu(self.gc1(x, adj)), self.dropout, training=self.training)
        return F.log_softmax(self.gc2(x, adj), dim=1)


rng = np.random.default_rng(0)
n_nodes, n_feat, n_class = 30, 12, 3
A = (rng.random((n_nodes, n_nodes)) < 0.1).astype(np.float32)
A = np.maximum(A, A.T)
adj = torch.eye(n_nodes) + torch.from_numpy(A)  # expect: DEV006
deg_inv_sqrt = adj.sum(1).pow(-0.5)
adj = deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]

features = torch.randn(n_nodes, n_feat)
labels = torch.randint(0, n_class, (n_nodes,))
idx_train = torch.arange(0, 20)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = GCN(n_feat, 16, n_class).to(device)
features, labels = features.to(device), labels.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

for epoch in range(3):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
    acc = (output.argmax(1)[idx_train] == labels[idx_train]).float().mean()
    print(f"epoch {epoch} loss {loss_train.item():.4f} train acc {acc.item():.3f}")
