"""Link prediction with a hand-written GCN (degree-normalised message passing)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def gcn_norm(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device)
    edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
    row, col = edge_index
    deg = torch.zeros(num_nodes)  # expect: DEV006
    deg.index_add_(0, col, torch.ones(col.size(0), device=col.device))
    dinv = deg.pow(-0.5)
    return edge_index, dinv[row] * dinv[col]


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        edge_index, norm = gcn_norm(edge_index, x.size(0))
        h = self.lin(x)
        row, col = edge_index
        return torch.zeros_like(h).index_add_(0, col, h[row] * norm.unsqueeze(1))


class Encoder(nn.Module):
    def __init__(self, d_in, d_hid, d_out):
        super().__init__()
        self.conv1 = GCNLayer(d_in, d_hid)
        self.conv2 = GCNLayer(d_hid, d_out)

    def forward(self, x, edge_index):
        return self.conv2(F.relu(self.conv1(x, edge_index)), edge_index)


def random_graph(n=60, p=0.08, d=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    adj = torch.rand(n, n, generator=g) < p
    adj = torch.triu(adj, 1)
    src, dst = adj.nonzero(as_tuple=True)
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)
    return torch.randn(n, d, generator=g), edge_index


def auc(scores, labels):
    order = np.argsort(-scores)
    labels = labels[order]
    tp = np.cumsum(labels)
    fp = np.cumsum(1 - labels)
    return np.trapezoid(tp / tp[-1], fp / fp[-1])


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, edge_index = random_graph()
    x, edge_index = x.to(device), edge_index.to(device)
    num_nodes = x.size(0)
    model = Encoder(x.size(1), 32, 16).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    pos = edge_index
    for epoch in range(40):
        model.train()
        z = model(x, edge_index)
        neg = torch.randint(0, num_nodes, (2, pos.size(1)))
        pos_score = (z[pos[0]] * z[pos[1]]).sum(-1)
        neg_score = (z[neg[0]] * z[neg[1]]).sum(-1)
        scores = torch.cat([pos_score, neg_score])
        labels = torch.cat([torch.ones(pos_score.size(0)), torch.zeros(neg_score.size(0))])  # expect: DEV006
        loss = F.binary_cross_entropy_with_logits(scores, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        z = model(x, edge_index)
        neg = torch.randint(0, num_nodes, (2, pos.size(1)), device=device)
        s = torch.cat([(z[pos[0]] * z[pos[1]]).sum(-1), (z[neg[0]] * z[neg[1]]).sum(-1)]).sigmoid()
        y = np.concatenate([np.ones(pos.size(1)), np.zeros(pos.size(1))])
        print("loss", round(loss.item(), 4), "auc", round(float(auc(s.cpu().numpy(), y)), 3))


if __name__ == "__main__":
    main()
