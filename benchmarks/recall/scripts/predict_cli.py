"""Command-line inference: load trained weights, score a CSV-like batch of features, print class probabilities."""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn


class TabularNet(nn.Module):
    def __init__(self, n_features=6, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


def load_model(weights_path, device):
    model = TabularNet()
    if os.path.exists(weights_path):
        state_dict = torch.load(weights_path)  # expect: DEV008
        model.load_state_dict(state_dict)
    else:
        print(f"warning: {weights_path} not found, using random weights")
    return model.to(device).eval()


def main():
    parser = argparse.ArgumentParser(description="score rows with a trained TabularNet")
    parser.add_argument("--weights", default="tabular_net.pt")
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--threshold", type=float, default=0.5)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = load_model(args.weights, device)
    features = np.random.RandomState(0).randn(args.rows, 6).astype(np.float32)
    x = torch.from_numpy(features).to(device)
    with torch.no_grad():
        probs = torch.softmax(model(x), dim=1).numpy()  # expect: DEV011
    for i, row in enumerate(probs):
        label = int(row.argmax())
        flag = "" if row[label] >= args.threshold else " (low confidence)"
        print(f"row {i}: class {label} p={row[label]:.3f}{flag}")


if __name__ == "__main__":
    main()
