from .decoder import Decoder
from .encoder import Encoder

__all__ = ["Encoder", "Decoder"]
