"""MoCo-v2 style contrastive pre-training with a momentum key encoder and a
FIFO queue of negative keys."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Augmented(Dataset):
    def __init__(self, n=256, d=32):
        self.x = torch.randn(n, d)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        v = self.x[i]
        aug = lambda t: t * (torch.rand_like(t) > 0.2) + 0.1 * torch.randn_like(t)
        return aug(v), aug(v)


class MoCo(nn.Module):
    def __init__(self, encoder, dim=16, K=512, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = encoder
        self.encoder_k = copy.deepcopy(encoder)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.queue = F.normalize(torch.randn(dim, K), dim=0)  # expect: DEV010
        self.ptr = 0

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data.mul_(self.m).add_(pq.data, alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        n = keys.shape[0]
        end = self.ptr + n
        if end <= self.K:
            self.queue[:, self.ptr:end] = keys.T
        else:
            self.queue[:, self.ptr:] = keys[: self.K - self.ptr].T
            self.queue[:, : end - self.K] = keys[self.K - self.ptr:].T
        self.ptr = end % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", q, self.queue.clone().detach())
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)  # expect: DEV006
        self._enqueue(k)
        return F.cross_entropy(logits, labels)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    enc = nn.Sequential(nn.Linear(32, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 16))
    model = MoCo(enc).to(device)
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9, weight_decay=1e-4)
    loader = DataLoader(Augmented(), batch_size=32, shuffle=True, drop_last=True)
    for epoch in range(3):
        running = 0.0
        for xq, xk in loader:
            xq, xk = xq.to(device, non_blocking=True), xk.to(device, non_blocking=True)
            loss = model(xq, xk)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch}: infoNCE {running / len(loader):.3f}")


if __name__ == "__main__":
    main()
