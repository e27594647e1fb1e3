"""MoCo v2 style pre-training: momentum key encoder and a queue of negatives."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_dim, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


class MoCo(nn.Module):
    def __init__(self, in_dim=24, dim=16, K=128, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = Encoder(in_dim, dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.queue = F.normalize(torch.randn(dim, K), dim=0)  # expect: DEV010
        self.ptr = 0

    @torch.no_grad()
    def momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def enqueue(self, keys):
        b = keys.size(0)
        self.queue[:, self.ptr:self.ptr + b] = keys.t()
        self.ptr = (self.ptr + b) % self.K

    def forward(self, x_q, x_k):
        q = self.encoder_q(x_q)
        with torch.no_grad():
            self.momentum_update()
            k = self.encoder_k(x_k)
        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.size(0), dtype=torch.long)  # expect: DEV006
        self.enqueue(k)
        return logits, labels


def jitter(x):
    return x + 0.05 * torch.randn_like(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpu", type=int, default=0)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--batch-size", type=int, default=32)
    args = ap.parse_args()
    device = torch.device(f"cuda:{args.gpu}") if torch.cuda.is_available() else torch.device("cpu")

    model = MoCo().to(device)
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9)
    for it in range(args.iters):
        x = torch.randn(args.batch_size, 24, device=device)
        logits, labels = model(jitter(x), jitter(x))
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(it, round(loss.item(), 4))


if __name__ == "__main__":
    main()
