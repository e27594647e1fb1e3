from .resnet_small import ResNetSmall

__all__ = ["ResNetSmall"]
