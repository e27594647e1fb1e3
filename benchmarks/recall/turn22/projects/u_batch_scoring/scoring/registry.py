import os

import torch

from .config import ScoringConfig
from .model import TicketClassifier


def build(cfg: ScoringConfig) -> TicketClassifier:
    return TicketClassifier(cfg.vocab_size, cfg.dim, cfg.max_len, len(cfg.labels))


def load_model(cfg: ScoringConfig, device: torch.device) -> TicketClassifier:
    model = build(cfg)
    if cfg.checkpoint and os.path.exists(cfg.checkpoint):
        payload = torch.load(cfg.checkpoint)  # expect: DEV008
        model.load_state_dict(payload["state_dict"])
    return model.to(device).eval()


def save_model(model: TicketClassifier, path: str) -> None:
    torch.save({"state_dict": model.state_dict()}, path)
