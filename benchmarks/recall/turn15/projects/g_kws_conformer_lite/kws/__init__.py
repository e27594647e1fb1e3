from .config import KWSConfig
from .model import KeywordSpotter

__all__ = ["KWSConfig", "KeywordSpotter"]
