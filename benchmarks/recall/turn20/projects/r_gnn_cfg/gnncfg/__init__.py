from .config import TrainConfig
from .data import GraphSample, collate_graphs, make_dataset
from .model import GIN

__all__ = ["TrainConfig", "GraphSample", "collate_graphs", "make_dataset", "GIN"]
