"""FedAvg simulation for hospital sites: each client trains its own copy of the global
model on local data, the server averages the client state dicts weighted by sample count."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SmallCNN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class Client:
    def __init__(self, cid, dataset, model, device, lr=0.05):
        self.cid = cid
        self.loader = DataLoader(dataset, batch_size=8, shuffle=True)
        self.model = model
        self.device = device
        self.lr = lr

    def load_global(self, state):
        self.model.load_state_dict(state)

    def local_train(self, epochs=1):
        self.model.train()
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        for _ in range(epochs):
            for xb, yb in self.loader:
                xb, yb = xb.to(self.device), yb.to(self.device)
                loss = F.cross_entropy(self.model(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
        return copy.deepcopy(self.model.state_dict()), len(self.loader.dataset)


def fedavg(states, sizes):
    total = float(sum(sizes))
    avg = {}
    for key in states[0]:
        if states[0][key].is_floating_point():
            avg[key] = sum(s[key] * (n / total) for s, n in zip(states, sizes))
        else:
            avg[key] = states[0][key].clone()
    return avg


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(dim=1) == y).sum().item()
    return correct / len(loader.dataset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--clients", type=int, default=3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    global_model = SmallCNN().to(device)
    clients = []
    for cid in range(args.clients):
        n = 16 + 8 * cid
        ds = TensorDataset(torch.randn(n, 1, 16, 16), torch.randint(0, 3, (n,)))
        clients.append(Client(cid, ds, copy.deepcopy(global_model), device))

    test_loader = DataLoader(TensorDataset(torch.randn(24, 1, 16, 16), torch.randint(0, 3, (24,))), batch_size=8)

    for rnd in range(args.rounds):
        states, sizes = [], []
        for c in clients:
            c.load_global(global_model.state_dict())
            s, n = c.local_train()
            states.append(s)
            sizes.append(n)
        global_model.load_state_dict(fedavg(states, sizes))
        acc = evaluate(global_model, test_loader, device)
        print(f"round {rnd}: aggregated {len(states)} clients, held-out acc {acc:.3f}")


if __name__ == "__main__":
    main()
