from .config import TrainConfig
from .data import InstructionDataset, collate, to_device
from .model import TinyCausalLM

__all__ = ["TrainConfig", "InstructionDataset", "collate", "to_device", "TinyCausalLM"]
