"""A deep GraphSAGE model for node classification on a synthetic graph (torch_geometric)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_geometric.data import Data
from torch_geometric.nn import SAGEConv


class DeepSAGE(nn.Module):
    def __init__(self, d_in, d_hidden, n_classes, n_layers=4):
        super().__init__()
        dims = [d_in] + [d_hidden] * (n_layers - 1)
        self.convs = [SAGEConv(a, b) for a, b in zip(dims[:-1], dims[1:])]  # expect: DEV009
        self.norms = nn.ModuleList(nn.LayerNorm(d_hidden) for _ in range(n_layers - 1))
        self.classifier = nn.Linear(d_hidden, n_classes)

    def forward(self, x, edge_index):
        for conv, norm in zip(self.convs, self.norms):
            x = F.relu(norm(conv(x, edge_index)))
        return self.classifier(x)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = Data(x=torch.randn(200, 12), edge_index=torch.randint(0, 200, (2, 800)), y=torch.randint(0, 5, (200,)))
    data = data.to(device)
    model = DeepSAGE(12, 32, 5).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(10):
        loss = F.cross_entropy(model(data.x, data.edge_index), data.y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
