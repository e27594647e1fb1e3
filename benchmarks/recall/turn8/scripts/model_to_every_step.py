"""Gradient-accumulation loop that re-sends the model to the device at every micro-step.

Thread: https://github.com/pytorch/pytorch/issues/2830 (optimizer load_state_dict problem: moving the
model while an optimizer holds its parameters, "should we rebuild the optimizer?").
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    dl = DataLoader(TensorDataset(torch.randn(128, 16), torch.randn(128, 1)), batch_size=8)
    accum = 4
    for i, (x, y) in enumerate(dl):
        model.to(device)  # expect: DEV007
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device)) / accum
        loss.backward()
        if (i + 1) % accum == 0:
            opt.step()
            opt.zero_grad()


if __name__ == "__main__":
    main()
