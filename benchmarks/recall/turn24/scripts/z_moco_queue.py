"""MoCo-style pretraining with a key queue, then a linear probe on dict batches."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def make_encoder(dim):
    return nn.Sequential(nn.Conv2d(1, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, dim))


class MoCo(nn.Module):
    def __init__(self, dim=32, K=256, m=0.99, T=0.1):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = make_encoder(dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad_(False)
        self.queue = F.normalize(torch.randn(dim, K), dim=0)  # expect: DEV010
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        ptr, n = int(self.queue_ptr), keys.size(0)
        self.queue[:, ptr:ptr + n] = keys.T
        self.queue_ptr[0] = (ptr + n) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", q, self.queue.clone().detach())
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.size(0), dtype=torch.long)  # expect: DEV006
        self._enqueue(k)
        return logits, labels


class Digits(Dataset):
    def __init__(self, n=256):
        self.x = torch.rand(n, 1, 16, 16)
        self.y = torch.randint(0, 4, (n,))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"image": self.x[i], "label": self.y[i]}


def augment(x):
    x = x + 0.1 * torch.randn_like(x)
    return torch.flip(x, dims=[3]) if torch.rand(()) < 0.5 else x


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = Digits()
    model = MoCo().to(device)
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
    loader = DataLoader(ds, batch_size=32, shuffle=True, drop_last=True)
    for epoch in range(2):
        for batch in loader:
            img = batch["image"].to(device)
            logits, labels = model(augment(img), augment(img))
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"pretrain epoch {epoch} loss {loss.item():.3f}")

    probe = nn.Linear(32, 4).to(device)
    popt = torch.optim.Adam(probe.parameters(), lr=1e-2)
    model.eval()
    for batch in DataLoader(ds, batch_size=64, shuffle=True):
        with torch.no_grad():
            feats = model.encoder_q(batch["image"].to(device))
        logits = probe(feats)
        loss = F.cross_entropy(logits, batch["label"])  # expect: DEV004
        popt.zero_grad()
        loss.backward()
        popt.step()
    print("probe loss", round(loss.item(), 3))


if __name__ == "__main__":
    main()
