"""MoCo-style momentum contrast with a FIFO queue of negative keys.

Written from stable-pretraining "OnlineKNN: OnlineQueue buffers live on CPU, causing device
mismatches" (torch.mm(query, support.t()) with the support set on the CPU) and lightly's
"Register memory bank as a buffer": the negative queue is a plain tensor attribute, so
model.to(device) leaves it on the CPU; the model is also (re)moved to the device inside the
epoch loop.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_dim=24, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 128), nn.BatchNorm1d(128), nn.ReLU(),
                                 nn.Linear(128, dim))

    def forward(self, x):
        return self.net(x)


class MoCo(nn.Module):
    def __init__(self, dim=32, K=512, m=0.99, T=0.07):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = Encoder(dim=dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        self.encoder_k.requires_grad_(False)
        self.queue = F.normalize(torch.randn(dim, K), dim=0)  # expect: DEV010
        self.ptr = 0

    @torch.no_grad()
    def _momentum_update(self):
        for pk, pq in zip(self.encoder_k.parameters(), self.encoder_q.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        bs = keys.size(0)
        self.queue[:, self.ptr:self.ptr + bs] = keys.t()
        self.ptr = (self.ptr + bs) % self.K

    def forward(self, x_q, x_k):
        q = F.normalize(self.encoder_q(x_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(x_k), dim=1)
        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.size(0), dtype=torch.long, device=logits.device)
        self._enqueue(k)
        return F.cross_entropy(logits, labels)


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    data = torch.randn(2048, 24)
    model = MoCo()
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9, weight_decay=1e-4)

    for epoch in range(4):
        model.to(device)  # expect: DEV007
        model.train()
        perm = torch.randperm(len(data))
        total = 0.0
        for i in range(0, len(data), 128):
            x = data[perm[i:i + 128]].to(device)
            loss = model(augment(x), augment(x))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / (len(data) // 128):.4f}")

    torch.save(model.encoder_q.state_dict(), "moco_encoder_q.pt")


if __name__ == "__main__":
    main()
