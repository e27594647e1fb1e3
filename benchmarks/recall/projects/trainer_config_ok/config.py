"""Experiment settings."""
import argparse
from dataclasses import dataclass

import torch


@dataclass
class Config:
    num_classes: int = 4
    image_size: int = 28
    batch_size: int = 16
    epochs: int = 2
    lr: float = 1e-3
    checkpoint: str = "last.pt"
    resume: bool = False
    device: str = "cpu"


def load_config(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=Config.epochs)
    parser.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    parser.add_argument("--cpu", action="store_true", help="train on the CPU even with a GPU")
    args = parser.parse_args(argv)
    device = "cuda" if torch.cuda.is_available() and not args.cpu else "cpu"
    return Config(epochs=args.epochs, resume=args.resume, device=device)


def class_weights(labels, num_classes):
    """Inverse-frequency weights, computed on the CPU from the training labels."""
    counts = torch.bincount(labels, minlength=num_classes).float().clamp(min=1)
    return counts.sum() / (num_classes * counts)
