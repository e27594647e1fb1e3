from .models import MiniGPT, CausalSelfAttention

__all__ = ["MiniGPT", "CausalSelfAttention"]
