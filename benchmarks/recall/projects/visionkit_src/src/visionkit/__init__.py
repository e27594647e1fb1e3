"""visionkit: tiny image-classification building blocks."""
from .data import build_loaders, to_device
from .models import PatchClassifier

__all__ = ["PatchClassifier", "build_loaders", "to_device"]
__version__ = "0.1"
