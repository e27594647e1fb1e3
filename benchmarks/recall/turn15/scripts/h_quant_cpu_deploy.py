"""Train the anomaly scorer (wherever there is a GPU), then build the int8 CPU artifact
the edge boxes run, and check it against the fp32 model on held-out windows.

    python h_quant_cpu_deploy.py train  --out scorer_fp32.pt
    python h_quant_cpu_deploy.py export --ckpt scorer_fp32.pt --out scorer_int8.pt
    python h_quant_cpu_deploy.py all     # both, in a temp dir
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.ao.quantization import quantize_dynamic

N_FEATURES = 32


class Scorer(nn.Module):
    def __init__(self, n_in=N_FEATURES, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def windows(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, N_FEATURES)).astype(np.float32)
    y = (np.abs(x[:, :4]).sum(1) > 4.0).astype(np.float32)  # "anomalous" windows
    x[y == 1, 4:8] += 1.5
    return x, y


def train(out, epochs=5):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, y = windows(4000, 0)
    x, y = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
    model = Scorer().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    pos_weight = ((1 - y).sum() / y.sum().clamp(min=1)).reshape(1)
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    for epoch in range(epochs):
        for idx in torch.randperm(len(x), device=device).split(128):
            loss = loss_fn(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    torch.save({"model": model.state_dict(), "n_features": N_FEATURES}, out)


def export(ckpt_path, out):
    ckpt = torch.load(ckpt_path, map_location="cpu")
    fp32 = Scorer(ckpt["n_features"])
    fp32.load_state_dict(ckpt["model"])
    fp32.eval()
    int8 = quantize_dynamic(fp32, {nn.Linear}, dtype=torch.qint8)

    x_np, y_np = windows(1000, 1)
    x = torch.from_numpy(x_np).type(torch.FloatTensor)
    with torch.no_grad():
        p32 = torch.sigmoid(fp32(x)).numpy()
        p8 = torch.sigmoid(int8(x)).numpy()
    acc32 = ((p32 > 0.5) == y_np).mean()
    acc8 = ((p8 > 0.5) == y_np).mean()
    print(f"fp32 acc {acc32:.3f}  int8 acc {acc8:.3f}  max |dp| {np.abs(p32 - p8).max():.4f}")
    scripted = torch.jit.script(int8)
    scripted.save(out)
    print("wrote", out, f"({os.path.getsize(out) / 1e3:.0f} kB)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", nargs="?", default="all", choices=["train", "export", "all"])
    ap.add_argument("--ckpt", default="scorer_fp32.pt")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    torch.manual_seed(0)
    if args.cmd == "train":
        train(args.out or "scorer_fp32.pt")
    elif args.cmd == "export":
        export(args.ckpt, args.out or "scorer_int8.pt")
    else:
        with tempfile.TemporaryDirectory() as d:
            train(os.path.join(d, "fp32.pt"))
            export(os.path.join(d, "fp32.pt"), os.path.join(d, "int8.pt"))


if __name__ == "__main__":
    main()
