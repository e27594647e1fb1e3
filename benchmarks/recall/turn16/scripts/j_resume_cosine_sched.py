"""Segmentation-style trainer (tiny UNet-ish) with warmup+cosine LR, AMP and resume.

Resume logic follows the usual recipe: build the model, put it on the device, build the
optimizer, *then* restore the optimizer/scheduler/scaler state so their tensors follow
the parameters.
"""
import argparse
import math
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--save-every", type=int, default=10)
    p.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "j_seg_run"))
    p.add_argument("--resume", default="")
    p.add_argument("--cpu", action="store_true")
    return p.parse_args()


class TinySeg(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc1 = nn.Conv2d(3, 16, 3, padding=1)
        self.enc2 = nn.Conv2d(16, 32, 3, padding=1)
        self.dec = nn.Conv2d(32 + 16, 16, 3, padding=1)
        self.out = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        e1 = F.relu(self.enc1(x))
        e2 = F.relu(self.enc2(F.max_pool2d(e1, 2)))
        up = F.interpolate(e2, scale_factor=2, mode="nearest")
        d = F.relu(self.dec(torch.cat([up, e1], 1)))
        return self.out(d)


def lr_lambda(warmup, total):
    def f(step):
        if step < warmup:
            return (step + 1) / warmup
        t = (step - warmup) / max(1, total - warmup)
        return 0.5 * (1 + math.cos(math.pi * t))
    return f


def random_batch(bs, device):
    x = torch.rand(bs, 3, 32, 32, device=device)
    y = (x[:, 0] > 0.5).long() + (x[:, 1] > 0.7).long()
    return x, y


def main():
    args = get_args()
    os.makedirs(args.workdir, exist_ok=True)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    model = TinySeg().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda(args.warmup, args.steps))
    scaler = torch.amp.GradScaler("cuda", enabled=device.type == "cuda")
    start = 0

    if args.resume:
        ckpt = torch.load(args.resume, map_location=device)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        scheduler.load_state_dict(ckpt["scheduler"])
        scaler.load_state_dict(ckpt["scaler"])
        start = ckpt["step"]
        print(f"resumed at step {start}")

    # class frequencies are roughly 0.5/0.35/0.15
    class_w = torch.tensor([1.0, 1.4, 3.0], device=device)

    for step in range(start, args.steps):
        model.train()
        x, y = random_batch(8, device)
        with torch.autocast(device.type, enabled=device.type == "cuda"):
            logits = model(x)
            loss = F.cross_entropy(logits, y, weight=class_w)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()

        if (step + 1) % args.save_every == 0:
            path = os.path.join(args.workdir, "last.pt")
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "scheduler": scheduler.state_dict(), "scaler": scaler.state_dict(),
                        "step": step + 1}, path)
            print(f"step {step + 1}: loss {loss.item():.4f}, saved {path}")


if __name__ == "__main__":
    main()
