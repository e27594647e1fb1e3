import os

import torch


def ckpt_path(out_dir):
    return os.path.join(out_dir, "ckpt.pt")


def save_checkpoint(out_dir, model, optimizer, iter_num, best_val, cfg):
    os.makedirs(out_dir, exist_ok=True)
    torch.save({
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "iter_num": iter_num,
        "best_val_loss": best_val,
        "config": vars(cfg),
    }, ckpt_path(out_dir))


def maybe_resume(out_dir, model, optimizer):
    """Restore model/optimizer state if a checkpoint exists; returns (iter_num, best_val)."""
    path = ckpt_path(out_dir)
    if not os.path.exists(path):
        return 0, float("inf")
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])  # expect: DEV017
    print(f"resuming from {path} at iter {state['iter_num']}")
    return state["iter_num"], state["best_val_loss"]
