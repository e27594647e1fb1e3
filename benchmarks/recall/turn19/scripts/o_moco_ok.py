"""MoCo v2 pre-training on synthetic images, single device, with batch shuffling for the
key encoder (poor man's shuffle-BN) and a fixed temperature.
"""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def encoder(dim):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, dim),
    )


class MoCo(nn.Module):
    def __init__(self, dim=64, K=256, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = encoder(dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        self.encoder_k.requires_grad_(False)
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        b = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + b] = keys.T
        self.queue_ptr[0] = (ptr + b) % self.K

    @torch.no_grad()
    def _shuffled_keys(self, im_k):
        idx_shuffle = torch.randperm(im_k.shape[0])
        idx_unshuffle = torch.argsort(idx_shuffle)
        k = self.encoder_k(im_k[idx_shuffle])
        return F.normalize(k, dim=1)[idx_unshuffle]

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = self._shuffled_keys(im_k)
        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)
        self._dequeue_and_enqueue(k)
        return logits, labels


def augment(x):
    flip = torch.rand(x.shape[0], device=x.device) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(-1), x)
    return (x + 0.1 * torch.randn_like(x)).clamp(0, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--queue", type=int, default=256)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    loader = DataLoader(TensorDataset(torch.rand(128, 3, 32, 32)), batch_size=args.batch_size,
                        shuffle=True, drop_last=True)
    model = MoCo(K=args.queue).to(device)
    optimizer = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9)

    for epoch in range(args.epochs):
        for (x,) in loader:
            x = x.to(device, non_blocking=True)
            logits, labels = model(augment(x), augment(x))
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch}: loss {loss.item():.3f} pos-top1 {acc:.2f}")
    torch.save(model.encoder_q.state_dict(), "moco_encoder_q.pt")


if __name__ == "__main__":
    main()
