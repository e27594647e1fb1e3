"""K-fold cross-validation of a small MLP; the model is created once per fold, and the training
step makes sure it is on the device before each forward pass."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(500, 9)
    y = (x[:, 0] * x[:, 1] > 0).long()
    folds = torch.arange(500) % 5
    scores = []
    for k in range(5):
        model = nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Linear(32, 2))
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        tr, te = folds != k, folds == k
        for step in range(60):
            idx = torch.nonzero(tr).squeeze(1)[torch.randint(0, int(tr.sum()), (32,))]
            xb, yb = x[idx].to(device), y[idx].to(device)
            model.to(device)  # expect: DEV007
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            acc = (model(x[te].to(device)).argmax(1).cpu() == y[te]).float().mean().item()
        scores.append(acc)
    print(sum(scores) / len(scores))


if __name__ == "__main__":
    main()
