"""MoCo-v2 style contrastive pretraining on synthetic "images" (feature vectors),
momentum key encoder, a FIFO queue of negatives, InfoNCE loss.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class TwoViews(Dataset):
    def __init__(self, n=512, dim=32):
        self.base = torch.randn(n, dim)

    def __len__(self):
        return len(self.base)

    def __getitem__(self, i):
        x = self.base[i]
        aug = lambda v: v * (1 + 0.1 * torch.randn_like(v)) + 0.05 * torch.randn_like(v)
        return aug(x), aug(x)


class MoCo(nn.Module):
    def __init__(self, in_dim=32, dim=16, K=256, m=0.99, tau=0.2):
        super().__init__()
        self.K, self.m, self.tau = K, m, tau
        self.encoder_q = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.queue = F.normalize(torch.randn(dim, K), dim=0)  # expect: DEV010
        self.ptr = 0

    @torch.no_grad()
    def _momentum_update(self):
        for pk, pq in zip(self.encoder_k.parameters(), self.encoder_q.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        n = keys.size(0)
        idx = (self.ptr + torch.arange(n)) % self.K
        self.queue[:, idx] = keys.T.to(self.queue.device)
        self.ptr = (self.ptr + n) % self.K

    def forward(self, xq, xk):
        q = F.normalize(self.encoder_q(xq), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(xk), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.tau
        labels = torch.zeros(logits.size(0), dtype=torch.long)  # expect: DEV006
        loss = F.cross_entropy(logits, labels)
        self._enqueue(k)
        return loss


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    loader = DataLoader(TwoViews(), batch_size=64, shuffle=True, drop_last=True)
    model = MoCo().to(device)
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9)
    for epoch in range(3):
        running = 0.0
        for xq, xk in loader:
            xq, xk = xq.to(device, non_blocking=True), xk.to(device, non_blocking=True)
            loss = model(xq, xk)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} loss {running / len(loader):.4f}")


if __name__ == "__main__":
    main()
