"""Batch inference script written on a two-GPU workstation: it pins the second card when CUDA is
present.

Thread: https://github.com/LuyaooChen/uninformed-students-pytorch/issues/3 (RuntimeError: CUDA error:
invalid device ordinal with 'cuda:1' on a one-GPU machine); https://github.com/Tencent/NeuralNLP-NeuralClassifier/issues/21.
"""
import torch
import torch.nn as nn


def main():
    if torch.cuda.is_available():
        torch.cuda.set_device(1)  # expect: DEV018
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")
    net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device).eval()
    with torch.no_grad():
        print(net(torch.randn(10, 8, device=device)).squeeze(1).tolist())


if __name__ == "__main__":
    main()
