"""Export a trained multi-task tabular model (shared trunk, one head per target) to TorchScript or ONNX."""
import argparse
import os

import torch
import torch.nn as nn


class MultiTaskNet(nn.Module):
    def __init__(self, d_in, targets, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = nn.ModuleDict({name: nn.Linear(hidden, n_out) for name, n_out in targets.items()})
        self.names = list(targets)

    def forward(self, x):
        h = self.trunk(x)
        return tuple(self.heads[n](h) for n in self.names)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="multitask.pt")
    ap.add_argument("--format", choices=["torchscript", "onnx"], default="torchscript")
    ap.add_argument("--out", default="multitask_export")
    ap.add_argument("--features", type=int, default=24)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    targets = {"churn": 2, "segment": 5, "ltv": 1}
    model = MultiTaskNet(args.features, targets)
    if not os.path.exists(args.ckpt):  # stand-in for the training run
        torch.save({"model": model.state_dict(), "targets": targets}, args.ckpt)
    state = torch.load(args.ckpt)  # expect: DEV008
    model.load_state_dict(state["model"])
    model.to(device).eval()

    dummy = torch.randn(1, args.features)  # expect: DEV006
    with torch.no_grad():
        if args.format == "onnx":
            torch.onnx.export(model, (dummy,), args.out + ".onnx", input_names=["x"],
                              output_names=list(targets), dynamic_axes={"x": {0: "batch"}})
        else:
            traced = torch.jit.trace(model, dummy)
            traced.save(args.out + ".pt")
            outs = traced(dummy)
            print({n: tuple(o.shape) for n, o in zip(targets, outs)})


if __name__ == "__main__":
    main()
