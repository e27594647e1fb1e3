"""Mixed-precision fine-tuning with resumable state: model, optimizer, scheduler and
GradScaler. The checkpoint is mapped to the CPU, the model is moved before the
optimizer is built, and load_state_dict then casts the optimizer state to the
parameters' device."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_model():
    return nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--ckpt", default="/tmp/s_resume_scaler_ok.pt")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"

    model = make_model().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-2, total_steps=64)
    scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
    step = 0

    if args.resume and os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        scaler.load_state_dict(state["scaler"])
        step = state["step"]
        print("resumed at step", step)

    torch.manual_seed(step)
    end = step + args.steps
    while step < end:
        x = torch.randn(16, 16, device=device)
        y = torch.randint(0, 3, (16,), device=device)
        with torch.autocast(device_type=device.type, enabled=use_amp):
            loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        step += 1
        if step % 4 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "scaler": scaler.state_dict(), "step": step}, args.ckpt)


if __name__ == "__main__":
    main()
