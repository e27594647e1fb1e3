"""Checkpoint helpers shared by the single-GPU and the torchrun entry points.

Thread: https://github.com/pytorch/examples/issues/969 (torch.load() without map_location: the
checkpoint's tensors go back to the GPU that saved them, cuda:0, on every rank).
"""
import torch


def save_checkpoint(model, opt, epoch, path="ckpt.pth"):
    torch.save({"model": model.state_dict(), "optim": opt.state_dict(), "epoch": epoch}, path)


def load_checkpoint(model, opt, path="ckpt.pth"):
    state = torch.load(path)  # expect: DEV008
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["optim"])
    return state["epoch"] + 1
