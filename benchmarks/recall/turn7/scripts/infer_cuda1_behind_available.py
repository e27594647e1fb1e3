"""Batch inference script from a two-GPU workstation: the second card is used when CUDA is
there, so the first stays free for training."""
import torch
import torch.nn as nn


def main():
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8)).eval()
    if torch.cuda.is_available():
        model = model.cuda(1)  # expect: DEV018
        device = next(model.parameters()).device
    else:
        device = torch.device("cpu")
    data = torch.randn(256, 32)
    with torch.no_grad():
        preds = torch.cat([model(data[i:i + 64].to(device)).argmax(1).cpu() for i in range(0, 256, 64)])
    print(preds.bincount(minlength=8).tolist())


if __name__ == "__main__":
    main()
