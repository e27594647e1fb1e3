"""Graph classification on TUDataset with PyG's DataLoader: the mini-batch object is never moved."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_geometric.datasets import TUDataset
from torch_geometric.loader import DataLoader
from torch_geometric.nn import GINConv, global_add_pool


class GIN(nn.Module):
    def __init__(self, in_dim, hidden=64, n_classes=2, layers=3):
        super().__init__()
        self.convs = nn.ModuleList()
        for i in range(layers):
            mlp = nn.Sequential(nn.Linear(in_dim if i == 0 else hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
            self.convs.append(GINConv(mlp))
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x, edge_index, batch):
        for conv in self.convs:
            x = F.relu(conv(x, edge_index))
        return self.head(global_add_pool(x, batch))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dataset = TUDataset("data/TU", name="MUTAG").shuffle()
    train_loader = DataLoader(dataset[:150], batch_size=32, shuffle=True)
    model = GIN(dataset.num_features).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(50):
        total = 0.0
        for data in train_loader:
            out = model(data.x, data.edge_index, data.batch)  # expect: DEV002
            loss = F.cross_entropy(out, data.y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * data.num_graphs
        print(epoch, total / 150)


if __name__ == "__main__":
    main()
