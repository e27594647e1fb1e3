"""DQN with prioritized experience replay."""
from .agent import DQNAgent
from .buffer import PrioritizedReplay
from .config import Config
from .envs import Corridor

__all__ = ["Config", "Corridor", "DQNAgent", "PrioritizedReplay"]
