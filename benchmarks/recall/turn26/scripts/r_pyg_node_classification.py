"""GraphSAGE with mini-batch neighbour sampling (torch_geometric), torchmetrics accuracy, macro-F1 at the end."""
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch_geometric.data import Data
from torch_geometric.loader import NeighborLoader
from torch_geometric.nn import SAGEConv
from torchmetrics.classification import MulticlassAccuracy


def synthetic_graph(num_nodes=2000, num_feats=64, num_classes=5, avg_deg=8):
    y = torch.randint(0, num_classes, (num_nodes,))
    x = torch.randn(num_nodes, num_feats) + F.one_hot(y, num_feats).float()
    src = torch.randint(0, num_nodes, (num_nodes * avg_deg,))
    dst = torch.randint(0, num_nodes, (num_nodes * avg_deg,))
    train_mask = torch.rand(num_nodes) < 0.6
    return Data(x=x, edge_index=torch.stack([src, dst]), y=y, train_mask=train_mask, test_mask=~train_mask)


class SAGE(torch.nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.conv1 = SAGEConv(in_dim, hidden)
        self.conv2 = SAGEConv(hidden, out_dim)

    def forward(self, x, edge_index):
        x = F.relu(self.conv1(x, edge_index))
        x = F.dropout(x, p=0.5, training=self.training)
        return self.conv2(x, edge_index)


def macro_f1(y_true, y_pred, num_classes):
    f1s = []
    for c in range(num_classes):
        tp = np.sum((y_pred == c) & (y_true == c))
        fp = np.sum((y_pred == c) & (y_true != c))
        fn = np.sum((y_pred != c) & (y_true == c))
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return float(np.mean(f1s))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    data = synthetic_graph()
    num_classes = int(data.y.max()) + 1
    train_loader = NeighborLoader(data, num_neighbors=[10, 5], batch_size=256, input_nodes=data.train_mask, shuffle=True)
    test_loader = NeighborLoader(data, num_neighbors=[10, 5], batch_size=512, input_nodes=data.test_mask)

    model = SAGE(data.num_features, 64, num_classes).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    acc_metric = MulticlassAccuracy(num_classes=num_classes)  # expect: DEV019

    for epoch in range(args.epochs):
        model.train()
        for batch in train_loader:
            optimizer.zero_grad()
            out = model(batch.x, batch.edge_index)[: batch.batch_size]  # expect: DEV002
            loss = F.cross_entropy(out, batch.y[: batch.batch_size])  # also: DEV004
            loss.backward()
            optimizer.step()

    model.eval()
    preds, ys = [], []
    with torch.no_grad():
        for batch in test_loader:
            batch = batch.to(device)
            out = model(batch.x, batch.edge_index)[: batch.batch_size]
            y = batch.y[: batch.batch_size]
            acc_metric.update(out, y)
            preds.append(out.argmax(dim=-1))
            ys.append(y)
    y_true = torch.cat(ys).numpy()  # expect: DEV011
    y_pred = torch.cat(preds).cpu().numpy()
    print("acc", acc_metric.compute().item(), "macro-F1", macro_f1(y_true, y_pred, num_classes))


if __name__ == "__main__":
    main()
