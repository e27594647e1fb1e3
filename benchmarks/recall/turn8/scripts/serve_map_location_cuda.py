"""Tiny Flask-free prediction service: loads a scripted sentiment model onto the GPU and scores
lines read from stdin.

Thread: https://github.com/uzh-rpg/rpg_e2vid/issues/15 (Attempting to deserialize object on a CUDA
device ... is there a way to run the reconstruction on the cpu?); https://github.com/yunjey/pytorch-tutorial/issues/249.
"""
import sys

import torch


def load(path="sentiment.ts"):
    model = torch.jit.load(path, map_location="cuda")  # expect: DEV001
    return model.eval()


def main():
    model = load()
    for line in sys.stdin:
        feats = torch.tensor([[float(v) for v in line.split()]], device=next(model.parameters()).device)
        print(model(feats).sigmoid().item())


if __name__ == "__main__":
    main()
