"""Multi-task net (classification + regression) with Kendall-style learned uncertainty weights.

From multi-task threads ("Question about the uncertainty output": `self.log_vars = ...` then
`loss.backward()`), and the torchmetrics reports "Accuracy, Precision, Recall raises RuntimeError
when device='cuda'" / "Both tensors are on same device but raises an error both aren't", where the
metric object was never moved with the model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy


class SharedTrunkNet(nn.Module):
    def __init__(self, in_dim=12, hidden=64, n_classes=4):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.cls_head = nn.Linear(hidden, n_classes)
        self.reg_head = nn.Linear(hidden, 1)
        self.log_vars = torch.zeros(2, requires_grad=True)  # expect: DEV010

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)

    def weighted_loss(self, task_losses):
        losses = torch.stack(task_losses)
        return (torch.exp(-self.log_vars) * losses + self.log_vars).sum()


def make_data(n=1200, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    cls = (x[:, :4].argmax(dim=1))
    reg = x[:, 4] * 3 + x[:, 5] ** 2 + 0.3 * torch.randn(n, generator=g)
    return x, cls, reg


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    x, cls, reg = make_data()
    train = DataLoader(TensorDataset(x[:1000], cls[:1000], reg[:1000]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x[1000:], cls[1000:], reg[1000:]), batch_size=100)

    model = SharedTrunkNet().to(device)
    optimizer = torch.optim.Adam(list(model.parameters()) + [model.log_vars], lr=2e-3)
    val_acc = MulticlassAccuracy(num_classes=4)  # expect: DEV019

    for epoch in range(5):
        model.train()
        for xb, cb, rb in train:
            xb, cb, rb = xb.to(device), cb.to(device), rb.to(device)
            logits, value = model(xb)
            loss = model.weighted_loss([F.cross_entropy(logits, cb), F.mse_loss(value, rb)])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        val_acc.reset()
        mae = 0.0
        with torch.no_grad():
            for xb, cb, rb in val:
                xb, cb, rb = xb.to(device), cb.to(device), rb.to(device)
                logits, value = model(xb)
                val_acc.update(logits.argmax(dim=1), cb)
                mae += (value - rb).abs().sum().item()
        weights = torch.exp(-model.log_vars.detach()).tolist()
        print(f"epoch {epoch}: acc {val_acc.compute().item():.3f} "
              f"mae {mae / 200:.3f} task weights {[round(w, 2) for w in weights]}")


if __name__ == "__main__":
    main()
