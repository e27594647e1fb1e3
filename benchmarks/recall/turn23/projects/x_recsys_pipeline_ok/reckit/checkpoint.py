import torch


def save(path, model, optimizer, epoch):
    torch.save({"model": model.state_dict(), "optim": optimizer.state_dict(), "epoch": epoch}, path)


def restore(path, model, optimizer, device):
    """Call after the model is on `device`; optimizer state follows the params."""
    state = torch.load(path, map_location=device)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optim"])
    return state["epoch"] + 1
