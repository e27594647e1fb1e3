"""Report helper: gets host tensors and turns them into NumPy."""
import numpy as np


def tag_histogram(pred_tags, n_tags):
    return np.bincount(np.asarray(pred_tags).ravel(), minlength=n_tags)
