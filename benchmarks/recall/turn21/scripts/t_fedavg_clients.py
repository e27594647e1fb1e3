"""FedAvg simulation: K clients with non-IID shards train local copies of the global
model; the server averages their state dicts weighted by shard size."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self, d_in=20, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.net(x)


def make_shards(n_clients, seed=0):
    g = torch.Generator().manual_seed(seed)
    shards = []
    for k in range(n_clients):
        n = 40 + 20 * k
        x = torch.randn(n, 20, generator=g) + k * 0.3
        y = (x[:, :4].argmax(1) + k) % 4
        shards.append(TensorDataset(x, y))
    return shards


def local_update(model, dataset, device, epochs=1, lr=0.05):
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        for x, y in DataLoader(dataset, batch_size=16, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


def fed_average(global_model, client_models, sizes):
    weights = torch.tensor(sizes, dtype=torch.float32) / sum(sizes)
    states = [m.state_dict() for m in client_models]
    avg = {}
    for key in states[0]:
        # iterating a 1-d tensor gives 0-dim weights, which mix with any device
        avg[key] = sum(w * s[key] for w, s in zip(weights, states))
    global_model.load_state_dict(avg)


def main():
    n_clients, rounds = 3, 3
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    shards = make_shards(n_clients)
    sizes = [len(s) for s in shards]

    global_model = MLP()
    clients = [copy.deepcopy(global_model) for _ in range(n_clients)]  # expect: DEV016
    global_model.to(device)

    test_x, test_y = torch.cat([s.tensors[0] for s in shards]), torch.cat([s.tensors[1] for s in shards])
    for r in range(rounds):
        losses = []
        for client, shard in zip(clients, shards):
            client.load_state_dict(global_model.state_dict())
            losses.append(local_update(client, shard, device))
        fed_average(global_model, clients, sizes)
        with torch.no_grad():
            acc = (global_model(test_x.to(device)).argmax(1).cpu() == test_y).float().mean().item()
        print(f"round {r} client losses {[round(l, 3) for l in losses]} global acc {acc:.3f}")


if __name__ == "__main__":
    main()
