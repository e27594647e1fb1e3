from .net import SmallConvNet
