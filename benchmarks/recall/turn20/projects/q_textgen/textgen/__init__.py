from .config import GenConfig
from .model import TinyDecoder
