import numpy as np
import torch

PALETTE = np.array([[0, 0, 0], [128, 128, 128], [200, 60, 60], [40, 160, 40]], dtype=np.uint8)


class ConfusionMeter:
    def __init__(self, num_classes, ignore_index, device):
        self.k, self.ignore = num_classes, ignore_index
        self.mat = torch.zeros(num_classes, num_classes, dtype=torch.long, device=device)

    def update(self, pred, target):
        keep = target != self.ignore
        idx = self.k * target[keep] + pred[keep]
        self.mat += torch.bincount(idx, minlength=self.k ** 2).view(self.k, self.k)

    def miou(self):
        m = self.mat.double().cpu()
        iou = m.diag() / (m.sum(0) + m.sum(1) - m.diag()).clamp(min=1)
        return iou.mean().item(), iou.tolist()


def colorize(pred, ignore_index=255):
    labels = pred.detach().cpu().numpy()
    rgb = PALETTE[np.clip(labels, 0, len(PALETTE) - 1)]
    rgb[labels == ignore_index] = 255
    return rgb
