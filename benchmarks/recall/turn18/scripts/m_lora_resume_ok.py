"""LoRA + new classification head, with checkpoint/resume of adapters and optimizer state.

Adapters and head are attached before the model moves; on resume the optimizer
state is loaded after the model is on its device.
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRA(nn.Module):
    def __init__(self, base, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.A = nn.Parameter(torch.randn(r, base.in_features) * 0.02)
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.s = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.A.T @ self.B.T) * self.s


class Backbone(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(1000, d)
        self.fc1 = nn.Linear(d, d)
        self.fc2 = nn.Linear(d, d)
        self.head = nn.Linear(d, 10)

    def forward(self, ids):
        h = self.emb(ids)
        h = F.relu(self.fc1(h))
        h = F.relu(self.fc2(h))
        return self.head(h)


def build(num_labels, device):
    model = Backbone()
    model.requires_grad_(False)
    model.fc1 = LoRA(model.fc1)
    model.fc2 = LoRA(model.fc2)
    model.head = nn.Linear(64, num_labels)
    return model.to(device)


def run(ckpt, steps, resume, device):
    model = build(3, device)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    step = 0
    if resume and os.path.exists(ckpt):
        state = torch.load(ckpt, map_location=device)
        model.load_state_dict(state["model"], strict=False)
        optimizer.load_state_dict(state["optim"])
        step = state["step"]
    g = torch.Generator().manual_seed(step)
    while step < steps:
        x = torch.randint(0, 1000, (16, 12), generator=g).to(device)
        y = (x[:, 0] % 3).to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
    trainable = {k: v for k, v in model.state_dict().items() if k.endswith((".A", ".B")) or k.startswith("head.")}
    torch.save({"model": trainable, "optim": optimizer.state_dict(), "step": step}, ckpt)
    print(f"step {step} loss {loss.item():.3f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "adapter.pt")
        run(path, 10, False, args.device)
        run(path, 20, True, args.device)
