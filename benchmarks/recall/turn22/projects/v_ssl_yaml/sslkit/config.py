"""YAML config loading with a couple of derived fields."""
from pathlib import Path

import torch
import yaml


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def load_config(path) -> dict:
    with open(Path(path)) as fh:
        cfg = yaml.safe_load(fh)
    cfg["device"] = resolve_device(str(cfg.get("device", "auto")))
    cfg["n_classes"] = len(cfg["data"]["imbalance"])
    return cfg
