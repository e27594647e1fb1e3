"""MoCo-style contrastive pre-training of a small MLP encoder on tabular feature vectors: a
momentum key encoder and a queue of past keys as negatives.

Thread: https://github.com/lightly-ai/lightly/pull/993 (Register memory bank as a buffer, so that
the bank follows the module to its device).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_encoder(dim):
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, dim))


class MoCo(nn.Module):
    def __init__(self, dim=32, K=256, m=0.99, T=0.07):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = make_encoder(dim)
        self.encoder_k = make_encoder(dim)
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data.copy_(pq.data)
            pk.requires_grad = False
        self.queue = F.normalize(torch.randn(dim, K), dim=0)  # expect: DEV010
        self.ptr = 0

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data.mul_(self.m).add_(pq.data, alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        b = keys.size(0)
        self.queue[:, self.ptr:self.ptr + b] = keys.t()
        self.ptr = (self.ptr + b) % self.K

    def forward(self, x_q, x_k):
        q = F.normalize(self.encoder_q(x_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(x_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.size(0), dtype=torch.long)  # expect: DEV006
        self._enqueue(k)
        return logits, labels


def augment(x):
    keep = (torch.rand_like(x) > 0.2).float()
    return x * keep + 0.05 * torch.randn_like(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MoCo().to(device)
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9)
    loader = DataLoader(TensorDataset(torch.randn(1024, 20)), batch_size=64, shuffle=True,
                        drop_last=True)
    for epoch in range(3):
        for (x,) in loader:
            x = x.to(device)
            logits, labels = model(augment(x), augment(x))
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: infoNCE {loss.item():.3f}")


if __name__ == "__main__":
    main()
