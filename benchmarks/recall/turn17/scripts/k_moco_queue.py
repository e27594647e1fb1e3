"""MoCo v2-style pretraining on a workstation GPU (small encoder, toy augmentations)."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def small_encoder(dim):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, dim),
    )


class MoCo(nn.Module):
    def __init__(self, dim=64, K=1024, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = small_encoder(dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        # queue of negative keys, one column per key
        self.queue = F.normalize(torch.randn(dim, K), dim=0)  # expect: DEV010
        self.queue_ptr = 0

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data.mul_(self.m).add_(pq.data, alpha=1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        bs = keys.shape[0]
        ptr = self.queue_ptr
        assert self.K % bs == 0
        self.queue[:, ptr:ptr + bs] = keys.T
        self.queue_ptr = (ptr + bs) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", q, self.queue.clone().detach())
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)
        self._dequeue_and_enqueue(k)
        return logits, labels


def augment(x):
    # random crop-and-resize + flip + colour jitter, batched
    B, _, H, W = x.shape
    s = int(H * 0.75)
    i, j = torch.randint(0, H - s + 1, (2,)).tolist()
    x = F.interpolate(x[:, :, i:i + s, j:j + s], size=(H, W), mode="bilinear", align_corners=False)
    if torch.rand(()) < 0.5:
        x = x.flip(-1)
    jitter = 1 + 0.4 * (torch.rand(B, 3, 1, 1, device=x.device) - 0.5)
    return x * jitter


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.03)
    args = parser.parse_args()

    device = torch.device("cuda")  # expect: DEV001
    images = torch.rand(256, 3, 32, 32)
    loader = DataLoader(TensorDataset(images), batch_size=args.batch_size, shuffle=True, drop_last=True)

    model = MoCo().to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.encoder_q.parameters(), args.lr, momentum=0.9, weight_decay=1e-4)

    for epoch in range(args.epochs):
        for (x,) in loader:
            x = x.to(device, non_blocking=True)
            logits, labels = model(augment(x), augment(x))
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    torch.save(model.encoder_q.state_dict(), "moco_encoder_q.pt")


if __name__ == "__main__":
    main()
