"""Settings for the grid detector on synthetic coloured squares.

Part of a small project written from the anchor-free/grid detector threads ("Expected all tensors
to be on the same device" from anchors made in `forward`, "can't convert cuda:0 device type tensor
to numpy" in evaluation helpers, and batch helpers that move the images but not the targets).
"""
import torch

IMAGE_SIZE = 32
STRIDE = 4
NUM_CLASSES = 3
ANCHOR_SIZE = 8.0
BATCH_SIZE = 16
EPOCHS = 10
LR = 2e-3
SCORE_THRESHOLD = 0.05
INPUT_KEYS = ("image",)


def get_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")
