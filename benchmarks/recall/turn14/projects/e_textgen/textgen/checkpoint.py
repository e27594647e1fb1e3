import torch


def save(path, model, optimizer, step, vocab):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "step": step, "vocab": vocab}, path)


def load(path, model, optimizer=None, device="cpu"):
    ckpt = torch.load(path, map_location=device)
    model.load_state_dict(ckpt["model"])
    if optimizer is not None:
        optimizer.load_state_dict(ckpt["optimizer"])
    return ckpt["step"], ckpt["vocab"]
