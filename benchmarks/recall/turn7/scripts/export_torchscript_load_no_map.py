"""Export a trained classifier to TorchScript on whatever machine runs the release job; the
weights come from the training cluster."""
import torch
import torch.nn as nn


def build():
    return nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 5))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build()
    state = torch.load("checkpoints/cluster_best.pt")  # expect: DEV008
    model.load_state_dict(state["model"])
    model.to(device).eval()
    scripted = torch.jit.trace(model, torch.randn(1, 30, device=device))
    scripted.save("classifier_ts.pt")


if __name__ == "__main__":
    main()
