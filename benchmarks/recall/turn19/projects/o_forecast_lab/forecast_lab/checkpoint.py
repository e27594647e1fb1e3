import os

import torch


def save(path, model, ema, optimizer, epoch):
    torch.save({"model": model.state_dict(), "ema": ema.state_dict(),
                "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def maybe_resume(path, model, ema, optimizer, device):
    """Call after model/ema are on `device`; optimizer state follows the params' device."""
    if not os.path.isfile(path):
        return 0
    state = torch.load(path, map_location=device)
    model.load_state_dict(state["model"])
    ema.load_state_dict(state["ema"])
    optimizer.load_state_dict(state["optimizer"])
    print(f"resumed from {path} (epoch {state['epoch']})")
    return state["epoch"] + 1
