"""Link prediction with a GraphSAGE-style encoder (mean aggregation) and a dot-product decoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import BinaryAUROC


class SAGELayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_self = nn.Linear(in_dim, out_dim)
        self.lin_neigh = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.bincount(dst, minlength=x.size(0)).clamp(min=1).unsqueeze(1)
        return self.lin_self(x) + self.lin_neigh(agg / deg)


class Encoder(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.l1 = SAGELayer(in_dim, hidden)
        self.l2 = SAGELayer(hidden, hidden)

    def forward(self, x, edge_index):
        return self.l2(F.relu(self.l1(x, edge_index)), edge_index)


def decode(z, pairs):
    return (z[pairs[0]] * z[pairs[1]]).sum(-1)


def negative_edges(num_nodes, num_neg):
    return torch.randint(0, num_nodes, (2, num_neg))  # also: DEV006


def train_step(model, opt, x, train_edges, num_nodes, device):
    model.train()
    z = model(x, train_edges)
    neg = negative_edges(num_nodes, train_edges.size(1))
    neg.to(device)  # expect: DEV005
    pairs = torch.cat([train_edges, neg], dim=1)
    labels = torch.cat([torch.ones(train_edges.size(1), device=device),
                        torch.zeros(neg.size(1), device=device)])
    loss = F.binary_cross_entropy_with_logits(decode(z, pairs), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


@torch.no_grad()
def evaluate(model, x, train_edges, pos, neg, device):
    model.eval()
    auroc = BinaryAUROC(thresholds=200)  # expect: DEV019
    z = model(x, train_edges)
    scores = torch.cat([decode(z, pos), decode(z, neg)]).sigmoid()
    labels = torch.cat([torch.ones(pos.size(1)), torch.zeros(neg.size(1))]).long().to(device)
    auroc.update(scores, labels)
    return auroc.compute().item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    num_nodes, feat = 200, 16
    g = torch.Generator().manual_seed(0)
    edges = torch.randint(0, num_nodes, (2, 1200), generator=g)
    perm = torch.randperm(edges.size(1), generator=g)
    train_edges, val_pos = edges[:, perm[:1000]], edges[:, perm[1000:]]
    val_neg = torch.randint(0, num_nodes, (2, val_pos.size(1)), generator=g)
    x = torch.randn(num_nodes, feat, generator=g)

    x, train_edges = x.to(device), train_edges.to(device)
    val_pos, val_neg = val_pos.to(device), val_neg.to(device)
    model = Encoder(feat, 32).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(20):
        loss = train_step(model, opt, x, train_edges, num_nodes, device)
        if epoch % 5 == 0:
            print(f"epoch {epoch} loss {loss:.4f} val auc {evaluate(model, x, train_edges, val_pos, val_neg, device):.3f}")


if __name__ == "__main__":
    main()
