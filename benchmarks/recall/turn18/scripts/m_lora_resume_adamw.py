"""LoRA adapter training with periodic checkpoints and --resume support.

    python m_lora_resume_adamw.py --out /tmp/lora_ckpt --steps 20
    python m_lora_resume_adamw.py --out /tmp/lora_ckpt --steps 40 --resume
"""
import argparse
import math
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, base, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        if self.base.bias is not None:
            self.base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.randn(r, base.in_features) * 0.02)
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + F.linear(F.linear(x, self.A), self.B) * self.scale


class MLPLM(nn.Module):
    """Stand-in for a frozen base model: embedding -> 2 MLP blocks -> vocab."""

    def __init__(self, vocab=512, d=96):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.fc1 = nn.Linear(d, d)
        self.fc2 = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + F.gelu(self.fc1(h))
        h = h + F.gelu(self.fc2(h))
        return self.out(h)


def build(lr):
    model = MLPLM()
    model.emb.weight.requires_grad_(False)
    model.out.weight.requires_grad_(False)
    model.out.bias.requires_grad_(False)
    model.fc1 = LoRALinear(model.fc1)
    model.fc2 = LoRALinear(model.fc2)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    return model, optimizer


def adapter_state(model):
    return {k: v for k, v in model.state_dict().items() if k.endswith(".A") or k.endswith(".B")}


def run(out_dir, total_steps, resume, lr=1e-3, device=None):
    device = device or torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ckpt_path = os.path.join(out_dir, "last.pt")
    model, optimizer = build(lr)
    start = 0
    if resume and os.path.exists(ckpt_path):
        ckpt = torch.load(ckpt_path, map_location="cpu")
        model.load_state_dict(ckpt["adapters"], strict=False)
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        start = ckpt["step"]
        print(f"resumed from step {start}")
    model.to(device)

    g = torch.Generator().manual_seed(start)
    for step in range(start, total_steps):
        ids = torch.randint(0, 512, (8, 33), generator=g).to(device)
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (step + 1) % 10 == 0:
            torch.save({"adapters": adapter_state(model), "optimizer": optimizer.state_dict(), "step": step + 1},
                       ckpt_path)
            print(f"step {step + 1} loss {loss.item():.3f} (ppl {math.exp(loss.item()):.0f}) saved")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--resume", action="store_true")
    a = ap.parse_args()
    if a.out is None:
        # smoke test: a short run, then resume it
        with tempfile.TemporaryDirectory() as d:
            run(d, 10, resume=False)
            run(d, 20, resume=True)
    else:
        os.makedirs(a.out, exist_ok=True)
        run(a.out, a.steps, a.resume)
