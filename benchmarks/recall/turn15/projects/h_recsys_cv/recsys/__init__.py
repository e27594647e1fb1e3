from .model import FeatureNCF
from .train import FoldConfig, fit_fold

__all__ = ["FeatureNCF", "FoldConfig", "fit_fold"]
