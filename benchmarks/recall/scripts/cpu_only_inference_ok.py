"""CPU-only batch inference for a small CNN: nothing is moved anywhere, so numpy and plain factories are fine."""
import argparse

import numpy as np
import torch
import torch.nn as nn


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.fc = nn.Linear(4 * 6 * 6, 10)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        bias = torch.zeros(h.size(0), 4 * 6 * 6)
        return self.fc(h.flatten(1) + bias)


parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--n", type=int, default=6)
args = parser.parse_args()

torch.set_num_threads(2)
torch.manual_seed(args.seed)
model = DigitNet()
model.eval()

images = torch.rand(args.n, 1, 8, 8)
with torch.no_grad():
    logits = model(images)
    probs = torch.softmax(logits, dim=1).numpy()
preds = probs.argmax(axis=1)
np.savetxt("/tmp/recall_cpu_preds.txt", preds, fmt="%d")
for i, (p, conf) in enumerate(zip(preds, probs.max(axis=1))):
    print(f"image {i}: digit {p} ({conf:.2f})")
