from .vocab import WordVocab
from .model import VQAModel

__all__ = ["WordVocab", "VQAModel"]
