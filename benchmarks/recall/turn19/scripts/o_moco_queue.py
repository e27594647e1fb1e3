"""MoCo v2 style pre-training on small synthetic images (single process, no shuffle-BN).

Based on the structure of facebookresearch/moco builder.py, reduced for a quick run.
"""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def small_encoder(dim=64):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, dim),
    )


class MoCo(nn.Module):
    def __init__(self, dim=64, K=512, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = small_encoder(dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        # the queue of negative keys
        self.queue = F.normalize(torch.randn(dim, K), dim=0)  # expect: DEV010
        self.queue_ptr = 0

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data.mul_(self.m).add_(pq.data, alpha=1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        b = keys.shape[0]
        ptr = self.queue_ptr
        assert self.K % b == 0
        self.queue[:, ptr:ptr + b] = keys.T
        self.queue_ptr = (ptr + b) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)

        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", q, self.queue.clone().detach())
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)  # expect: DEV006

        self._dequeue_and_enqueue(k)
        return logits, labels


def two_crops(x):
    """Cheap augmentations: random flip + brightness jitter + random crop/resize."""
    def aug(img):
        if torch.rand(1).item() < 0.5:
            img = img.flip(-1)
        img = img * (0.8 + 0.4 * torch.rand(img.shape[0], 1, 1, 1, device=img.device))
        i, j = torch.randint(0, 5, (2,)).tolist()
        crop = img[:, :, i:i + 28, j:j + 28]
        return F.interpolate(crop, size=32, mode="bilinear", align_corners=False)
    return aug(x), aug(x)


def main():
    parser = argparse.ArgumentParser(description="MoCo pre-training")
    parser.add_argument("--epochs", default=2, type=int)
    parser.add_argument("--batch-size", default=32, type=int)
    parser.add_argument("--moco-k", default=256, type=int)
    parser.add_argument("--moco-t", default=0.2, type=float)
    parser.add_argument("--gpu", default=0, type=int, help="GPU id to use (ignored without CUDA).")
    args = parser.parse_args()

    if args.gpu is not None and torch.cuda.is_available():
        device = torch.device("cuda", args.gpu)
    else:
        device = torch.device("cpu")

    images = torch.rand(128, 3, 32, 32)
    loader = DataLoader(TensorDataset(images), batch_size=args.batch_size, shuffle=True, drop_last=True)

    model = MoCo(K=args.moco_k, T=args.moco_t).to(device)
    criterion = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9, weight_decay=1e-4)

    for epoch in range(args.epochs):
        for (x,) in loader:
            x = x.to(device, non_blocking=True)
            im_q, im_k = two_crops(x)
            output, target = model(im_q, im_k)
            loss = criterion(output, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
