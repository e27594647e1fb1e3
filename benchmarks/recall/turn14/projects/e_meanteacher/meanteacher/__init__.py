"""Mean-teacher semi-supervised training (Tarvainen & Valpola, 2017)."""

__version__ = "0.1.0"
