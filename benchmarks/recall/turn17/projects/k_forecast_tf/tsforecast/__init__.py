from .config import ForecastConfig
from .data import StandardScaler, make_loaders, synthetic_sensor_data
from .metrics import evaluate
from .model import Seq2SeqForecaster
from .trainer import Trainer

__all__ = ["ForecastConfig", "StandardScaler", "make_loaders", "synthetic_sensor_data",
           "evaluate", "Seq2SeqForecaster", "Trainer"]
