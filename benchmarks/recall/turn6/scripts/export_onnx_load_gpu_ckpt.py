"""Export a trained keypoint regressor to ONNX; the checkpoint comes from the training cluster,
and the export runs on whatever machine the release engineer has."""
import argparse

import torch
import torch.nn as nn


class KeypointNet(nn.Module):
    def __init__(self, n_kp=5):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, 2 * n_kp)

    def forward(self, x):
        return self.head(self.body(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default="runs/kp/best.pt")
    parser.add_argument("--out", default="kp.onnx")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = KeypointNet()
    state = torch.load(args.ckpt)  # expect: DEV008
    model.load_state_dict(state["model"])
    model.to(device).eval()
    dummy = torch.randn(1, 3, 64, 64, device=device)
    torch.onnx.export(model, dummy, args.out, input_names=["image"], output_names=["kp"])


if __name__ == "__main__":
    main()
