from .agent import RainbowLiteAgent
from .buffer import PrioritizedReplay
from .networks import NoisyQNet

__all__ = ["RainbowLiteAgent", "PrioritizedReplay", "NoisyQNet"]
