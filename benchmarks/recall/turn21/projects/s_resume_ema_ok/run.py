"""Entry point.
    python run.py --steps 20 --ckpt /tmp/s_resume_ema.pt
    python run.py --steps 20 --ckpt /tmp/s_resume_ema.pt --resume
"""
import argparse

import torch

from s_resume_ema.checkpoint import load_checkpoint, save_checkpoint
from s_resume_ema.config import RunConfig
from s_resume_ema.data import batches, to_device
from s_resume_ema.ema import ModelEMA
from s_resume_ema.metrics import summarize
from s_resume_ema.model import build_model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--ckpt", default="/tmp/s_resume_ema.pt")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    cfg = RunConfig(steps=args.steps)

    model = build_model(cfg).to(cfg.device)
    ema = ModelEMA(model, decay=cfg.ema_decay)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=200)
    scaler = torch.amp.GradScaler(cfg.device.type, enabled=cfg.use_amp)
    criterion = torch.nn.CrossEntropyLoss(weight=cfg.class_weights().to(cfg.device))

    step = 0
    if args.resume:
        step = load_checkpoint(args.ckpt, model, ema, optimizer, scheduler, scaler)
        print("resumed at step", step)

    for batch in batches(cfg, start=step, count=cfg.steps):
        batch = to_device(batch, cfg.device)
        with torch.autocast(cfg.device.type, enabled=cfg.use_amp):
            loss = criterion(model(batch["x"]), batch["y"])
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        ema.update(model)
        step += 1

    with torch.no_grad():
        val = to_device(next(iter(batches(cfg, start=10_000, count=1))), cfg.device)
        print("model", summarize(model(val["x"]), val["y"]))
        print("ema  ", summarize(ema.module(val["x"]), val["y"]))
    save_checkpoint(args.ckpt, model, ema, optimizer, scheduler, scaler, step)


if __name__ == "__main__":
    main()
