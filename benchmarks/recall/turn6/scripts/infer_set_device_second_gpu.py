"""Batch inference service script: pins itself to the second GPU so that the first stays free
for training jobs on the same workstation."""
import time

import torch
import torch.nn as nn


def load_model():
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 8))
    model.eval()
    return model


def main():
    if torch.cuda.is_available():
        torch.cuda.set_device(1)  # expect: DEV018
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")
    model = load_model().to(device)
    requests = [torch.randn(16, 64) for _ in range(10)]
    t0 = time.time()
    with torch.no_grad():
        for req in requests:
            scores = model(req.to(device)).softmax(-1)
            print(scores.argmax(-1).tolist())
    print(f"{time.time() - t0:.3f}s")


if __name__ == "__main__":
    main()
