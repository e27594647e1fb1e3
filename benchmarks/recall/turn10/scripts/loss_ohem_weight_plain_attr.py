"""Semantic segmentation with an online-hard-example-mining loss: per-pixel class-weighted cross
entropy, of which only the hardest quarter is averaged. The loss module is moved with the model.

Thread: https://github.com/KevinMusgrave/pytorch-metric-learning/issues/139 (a tensor defined in a
loss module's __init__ is not moved to the same device as the embeddings).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class OHEMCrossEntropy(nn.Module):
    def __init__(self, class_weights, keep=0.25, ignore_index=255):
        super().__init__()
        self.class_weights = torch.tensor(class_weights, dtype=torch.float32)  # expect: DEV010
        self.keep = keep
        self.ignore_index = ignore_index

    def forward(self, logits, target):
        per_pixel = F.cross_entropy(logits, target, weight=self.class_weights,
                                    ignore_index=self.ignore_index, reduction="none").flatten()
        k = max(1, int(self.keep * per_pixel.numel()))
        return per_pixel.topk(k).values.mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 4, 1)).to(device)
    criterion = OHEMCrossEntropy([0.5, 1.0, 2.0, 4.0]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    images = torch.rand(64, 3, 32, 32)
    masks = torch.randint(0, 4, (64, 32, 32))
    for epoch in range(2):
        for x, y in DataLoader(TensorDataset(images, masks), batch_size=8, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
