import torch


def save_checkpoint(path, model, optimizer, epoch):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def load_checkpoint(path, model, optimizer=None):
    state = torch.load(path)  # expect: DEV008
    model.load_state_dict(state["model"])
    if optimizer is not None:
        optimizer.load_state_dict(state["optimizer"])
    return state["epoch"] + 1
