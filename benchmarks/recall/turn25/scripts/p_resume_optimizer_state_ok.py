"""Segmentation-style training (tiny UNet) with SGD + cosine schedule and a
GradScaler; --resume restores model, optimizer, scheduler, scaler and step.
The model goes to the device before its optimizer is built and restored.
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet(nn.Module):
    def __init__(self, c=8, classes=3):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
        self.mid = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(c, 2 * c, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(2 * c, c, 2, stride=2)
        self.out = nn.Conv2d(2 * c, classes, 1)

    def forward(self, x):
        d = self.down(x)
        return self.out(torch.cat([d, self.up(self.mid(d))], dim=1))


def save_checkpoint(path, model, optimizer, scheduler, scaler, step):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "scaler": scaler.state_dict(), "step": step}, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--ckpt", default=os.path.join(tempfile.gettempdir(), "p_unet_ok.pt"))
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = TinyUNet().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=100)
    scaler = torch.amp.GradScaler(device.type, enabled=device.type == "cuda")
    step = 0
    if args.resume and os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        scaler.load_state_dict(state["scaler"])
        step = state["step"]
        print(f"resumed at step {step}")

    model.train()
    for _ in range(args.steps):
        x = torch.randn(4, 3, 16, 16, device=device)
        y = torch.randint(0, 3, (4, 16, 16), device=device)
        with torch.autocast(device.type, enabled=device.type == "cuda"):
            loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        step += 1
    save_checkpoint(args.ckpt, model, optimizer, scheduler, scaler, step)
    print(f"step {step}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
