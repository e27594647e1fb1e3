from .detector import TinyDetector
