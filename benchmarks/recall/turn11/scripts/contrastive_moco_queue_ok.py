"""Look-alike of contrastive_moco_queue_attr.py: the queue and its pointer are registered
buffers (they follow model.to(device)), the InfoNCE labels are made on the logits' device, and
the temperature is a learnable 0-dim parameter.

Thread: https://github.com/lightly-ai/lightly/pull/993 (Register memory bank as a buffer).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_encoder(dim):
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, dim))


class MoCo(nn.Module):
    def __init__(self, dim=32, K=256, m=0.99):
        super().__init__()
        self.K, self.m = K, m
        self.encoder_q, self.encoder_k = make_encoder(dim), make_encoder(dim)
        self.encoder_k.load_state_dict(self.encoder_q.state_dict())
        self.encoder_k.requires_grad_(False)
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))
        self.log_temp = nn.Parameter(torch.tensor(math.log(0.07)))

    @torch.no_grad()
    def _enqueue(self, keys):
        ptr, b = int(self.queue_ptr), keys.size(0)
        self.queue[:, ptr:ptr + b] = keys.t()
        self.queue_ptr[0] = (ptr + b) % self.K

    def forward(self, x_q, x_k):
        q = F.normalize(self.encoder_q(x_q), dim=1)
        with torch.no_grad():
            for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
                pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)
            k = F.normalize(self.encoder_k(x_k), dim=1)
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ self.queue.clone()], dim=1)
        logits = logits / self.log_temp.exp()
        labels = torch.zeros(logits.size(0), dtype=torch.long, device=logits.device)
        self._enqueue(k)
        return logits, labels


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MoCo().to(device)
    params = list(model.encoder_q.parameters()) + [model.log_temp]
    opt = torch.optim.SGD(params, lr=0.03, momentum=0.9)
    loader = DataLoader(TensorDataset(torch.randn(1024, 20)), batch_size=64, shuffle=True,
                        drop_last=True)
    for epoch in range(3):
        for (x,) in loader:
            x = x.to(device)
            view1 = x * (torch.rand_like(x) > 0.2) + 0.05 * torch.randn_like(x)
            view2 = x * (torch.rand_like(x) > 0.2) + 0.05 * torch.randn_like(x)
            logits, labels = model(view1, view2)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: infoNCE {loss.item():.3f} T {model.log_temp.exp().item():.3f}")


if __name__ == "__main__":
    main()
