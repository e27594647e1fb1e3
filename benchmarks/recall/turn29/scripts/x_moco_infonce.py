"""MoCo-style contrastive pre-training on synthetic views: a query encoder, a momentum key
encoder, and InfoNCE over the batch (positives on the diagonal)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

TEMPERATURE = 0.1
MOMENTUM = 0.99


class Encoder(nn.Module):
    def __init__(self, d_in=32, d_out=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 64))
        self.proj = nn.Sequential(nn.ReLU(), nn.Linear(64, d_out))

    def forward(self, x):
        return F.normalize(self.proj(self.body(x)), dim=-1)


def augment(x):
    return x + 0.1 * torch.randn_like(x) * (torch.rand_like(x) > 0.2)


@torch.no_grad()
def momentum_update(q_enc, k_enc, m=MOMENTUM):
    for pq, pk in zip(q_enc.parameters(), k_enc.parameters()):
        pk.mul_(m).add_(pq.detach(), alpha=1 - m)


def info_nce(q, k, temperature=TEMPERATURE):
    logits = q @ k.t() / temperature
    labels = torch.arange(q.shape[0])  # expect: DEV006
    return F.cross_entropy(logits, labels)


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    encoder = Encoder()
    key_encoder = copy.deepcopy(encoder)  # expect: DEV016
    for p in key_encoder.parameters():
        p.requires_grad = False
    encoder.to(device)
    opt = torch.optim.SGD(encoder.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)

    data = torch.randn(512, 32)
    for step in range(40):
        idx = torch.randint(0, len(data), (64,))
        x = data[idx].to(device)
        q = encoder(augment(x))
        with torch.no_grad():
            momentum_update(encoder, key_encoder)
            k = key_encoder(augment(x))
        loss = info_nce(q, k)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
