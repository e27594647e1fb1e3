import numpy as np
import torch


class ConfusionMeter:
    def __init__(self, n_classes):
        self.n = n_classes
        self.mat = np.zeros((n_classes, n_classes), dtype=np.int64)

    def update(self, logits: torch.Tensor, target: torch.Tensor):
        pred = logits.argmax(-1).detach().cpu().numpy()
        true = target.detach().cpu().numpy()
        np.add.at(self.mat, (true, pred), 1)

    def accuracy(self):
        return float(np.trace(self.mat) / max(1, self.mat.sum()))

    def per_class_recall(self):
        return self.mat.diagonal() / np.maximum(1, self.mat.sum(1))
