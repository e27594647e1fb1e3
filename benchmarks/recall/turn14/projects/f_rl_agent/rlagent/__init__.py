from .agent import Agent, QNetwork, ReplayBuffer
from .config import Config

__all__ = ["Agent", "QNetwork", "ReplayBuffer", "Config"]
