"""Demand forecasting: data windows, model, trainer, metrics."""
from .config import ForecastConfig

__all__ = ["ForecastConfig"]
