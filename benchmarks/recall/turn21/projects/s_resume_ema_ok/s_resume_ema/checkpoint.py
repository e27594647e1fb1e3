import os

import torch


def save_checkpoint(path, model, ema, optimizer, scheduler, scaler, step):
    torch.save({"model": model.state_dict(), "ema": ema.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "scaler": scaler.state_dict(), "step": step}, path)


def load_checkpoint(path, model, ema, optimizer, scheduler, scaler):
    """Load a checkpoint saved on any device into objects that already sit on theirs."""
    if not os.path.exists(path):
        return 0
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state["model"])
    ema.load_state_dict(state["ema"])
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    scaler.load_state_dict(state["scaler"])
    return int(state["step"])
