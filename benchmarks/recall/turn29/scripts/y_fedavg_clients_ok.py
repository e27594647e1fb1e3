"""FedAvg simulation: K clients with non-IID shards, weighted state_dict averaging."""
import copy
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class FedConfig:
    num_clients: int = 4
    rounds: int = 2
    local_epochs: int = 1
    lr: float = 0.05
    batch_size: int = 32


class MLP(nn.Module):
    def __init__(self, d_in=20, n_cls=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, n_cls))

    def forward(self, x):
        return self.net(x)


def make_shards(num_clients, n=600):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, 20, generator=g)
    y = torch.randint(0, 5, (n,), generator=g)
    order = torch.argsort(y)
    return [TensorDataset(x[idx], y[idx]) for idx in order.chunk(num_clients)]


def local_train(model, loader, cfg, device):
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    model.train()
    for _ in range(cfg.local_epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model.state_dict()


def fed_average(states, sizes):
    total = float(sum(sizes))
    avg = {}
    for key in states[0]:
        avg[key] = sum(sd[key] * (n / total) for sd, n in zip(states, sizes))
    return avg


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    losses = []
    for x, y in loader:
        x = x.to(device)
        logits = model(x)
        losses.append(F.cross_entropy(logits, y.to(device)).item())
    return sum(losses) / len(losses)


def main(cfg=FedConfig()):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    shards = make_shards(cfg.num_clients)
    loaders = [DataLoader(s, batch_size=cfg.batch_size, shuffle=True) for s in shards]
    test_loader = DataLoader(make_shards(1, 200)[0], batch_size=64)

    global_model = MLP().to(device)
    clients = [copy.deepcopy(global_model) for _ in range(cfg.num_clients)]

    for rnd in range(cfg.rounds):
        states, sizes = [], []
        for client, loader in zip(clients, loaders):
            client.load_state_dict(global_model.state_dict())
            states.append(local_train(client, loader, cfg, device))
            sizes.append(len(loader.dataset))
        global_model.load_state_dict(fed_average(states, sizes))
        print(f"round {rnd} test loss {evaluate(global_model, test_loader, device):.4f}")


if __name__ == "__main__":
    main()
