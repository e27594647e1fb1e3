import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch


def to_uint8(x):
    x = ((x.clamp(-1, 1) + 1) * 127.5).round()
    return x.permute(0, 2, 3, 1).to(torch.uint8).numpy()  # expect: DEV011


def save_grid(samples, path, nrow=None):
    imgs = to_uint8(samples)
    n, h, w, c = imgs.shape
    nrow = nrow or int(math.ceil(math.sqrt(n)))
    ncol = int(math.ceil(n / nrow))
    grid = np.full((ncol * h, nrow * w, c), 255, dtype=np.uint8)
    for k in range(n):
        r, cc = divmod(k, nrow)
        grid[r * h:(r + 1) * h, cc * w:(cc + 1) * w] = imgs[k]
    plt.imsave(path, grid)
