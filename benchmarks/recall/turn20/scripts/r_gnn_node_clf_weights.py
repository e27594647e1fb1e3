import numpy as np
import torch
import torch.nn as nn


def normalized_adjacency(edge_index, n):
    a = torch.zeros(n, n)
    a[edge_index[0], edge_index[1]] = 1.0
    a = a + torch.eye(n)
    d = a.sum(1).pow(-0.5)
    return d[:, None] * a * d[None, :]


class DenseGCN(nn.Module):
    def __init__(self, d_in, d_hid, n_cls):
        super().__init__()
        self.w1 = nn.Linear(d_in, d_hid)
        self.w2 = nn.Linear(d_hid, n_cls)

    def forward(self, x, adj):
        h = torch.relu(adj @ self.w1(x))
        return adj @ self.w2(h)


n, n_cls = 60, 4
x = torch.randn(n, 12)
y = torch.multinomial(torch.tensor([0.6, 0.2, 0.15, 0.05]), n, replacement=True)
edge_index = torch.randint(0, n, (2, 200))
adj = normalized_adjacency(edge_index, n)
train_mask = torch.rand(n) < 0.6

# inverse-frequency class weights so the rare classes count
counts = torch.bincount(y[train_mask], minlength=n_cls).float().clamp(min=1)
class_weights = counts.sum() / (n_cls * counts)
criterion = nn.CrossEntropyLoss(weight=class_weights)  # expect: DEV012

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x, y, adj, train_mask = x.to(device), y.to(device), adj.to(device), train_mask.to(device)
model = DenseGCN(12, 32, n_cls).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(50):
    model.train()
    opt.zero_grad()
    out = model(x, adj)
    loss = criterion(out[train_mask], y[train_mask])
    loss.backward()
    opt.step()

model.eval()
with torch.no_grad():
    logits = model(x, adj)
pred = logits.argmax(dim=1).numpy()  # expect: DEV011
true = y.cpu().numpy()
test = ~train_mask.cpu().numpy()
print("test acc", float(np.mean(pred[test] == true[test])))
