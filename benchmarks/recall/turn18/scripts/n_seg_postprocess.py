"""Inference for a segmentation model with mean-filter smoothing and a numpy CRF-like refinement."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CLASSES = 4


class FCN(nn.Module):
    def __init__(self, num_classes=NUM_CLASSES):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        return self.head(self.body(x))


class ProbSmoother(nn.Module):
    """Depthwise box filter over class probabilities."""

    def __init__(self, num_classes, k=5):
        super().__init__()
        self.num_classes, self.k = num_classes, k

    def forward(self, probs):
        k = self.k
        kernel = torch.ones(self.num_classes, 1, k, k) / (k * k)  # expect: DEV006
        return F.conv2d(probs, kernel, padding=k // 2, groups=self.num_classes)


def refine(prob, image, n_iter=3, w=0.5):
    """Very small stand-in for a dense CRF: pull each pixel toward similar-coloured neighbours."""
    q = prob.copy()
    for _ in range(n_iter):
        shifted = [np.roll(q, s, axis=a) for a in (1, 2) for s in (-1, 1)]
        img_shift = [np.roll(image, s, axis=a) for a in (1, 2) for s in (-1, 1)]
        msg = np.zeros_like(q)
        for qs, imgs in zip(shifted, img_shift):
            affinity = np.exp(-((image - imgs) ** 2).sum(0))
            msg += affinity[None] * qs
        q = prob * np.exp(w * msg)
        q /= q.sum(0, keepdims=True)
    return q


@torch.no_grad()
def predict(model, smoother, image, device):
    logits = model(image.unsqueeze(0).to(device))
    probs = logits.softmax(dim=1)
    probs = smoother(probs)
    prob_np = probs[0].numpy()  # expect: DEV011
    refined = refine(prob_np, image.numpy())
    return refined.argmax(0)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = FCN().to(device).eval()
    smoother = ProbSmoother(NUM_CLASSES).to(device)
    images = torch.rand(3, 3, 24, 24)
    for i, img in enumerate(images):
        mask = predict(model, smoother, img, device)
        print(i, np.bincount(mask.ravel(), minlength=NUM_CLASSES))


if __name__ == "__main__":
    main()
