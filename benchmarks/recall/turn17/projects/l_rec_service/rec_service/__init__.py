from .features import FeatureSpec
from .model import RankingModel

__all__ = ["FeatureSpec", "RankingModel"]
