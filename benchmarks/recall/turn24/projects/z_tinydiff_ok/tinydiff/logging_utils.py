import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np


def save_grid(samples, path, ncols=4):
    imgs = samples.detach().clamp(-1, 1).squeeze(1).cpu().numpy()
    nrows = int(np.ceil(len(imgs) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(2 * ncols, 2 * nrows))
    for ax, img in zip(np.ravel(axes), imgs):
        ax.imshow((img + 1) / 2, cmap="gray", vmin=0, vmax=1)
        ax.axis("off")
    fig.savefig(path)
    plt.close(fig)
    return float(imgs.mean())
