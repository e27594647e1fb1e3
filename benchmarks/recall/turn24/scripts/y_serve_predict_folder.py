"""Batch inference service: classify every .pt feature file in a folder, print JSON.

Prior correction: the model was trained on a balanced set, the deployment traffic is not,
so logits are shifted by the log of the deployment class prior before the softmax.
"""
import argparse
import json
import os
import tempfile

import torch
import torch.nn as nn

CLASSES = ["ok", "warn", "fail"]
DEPLOY_PRIOR = [0.7, 0.2, 0.1]
LOG_PRIOR = torch.log(torch.tensor(DEPLOY_PRIOR))  # expect: DEV006


class SpectrumNet(nn.Module):
    def __init__(self, n_bins=64, n_cls=3):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(8))
        self.fc = nn.Linear(64, n_cls)

    def forward(self, x):
        return self.fc(self.conv(x.unsqueeze(1)).flatten(1))


def load_model(path, device):
    model = SpectrumNet()
    if path and os.path.exists(path):
        model.load_state_dict(torch.load(path, map_location=device))
    return model.to(device).eval()


def iter_batches(folder, batch_size):
    names = sorted(f for f in os.listdir(folder) if f.endswith(".pt"))
    for i in range(0, len(names), batch_size):
        chunk = names[i:i + batch_size]
        feats = torch.stack([torch.load(os.path.join(folder, n)) for n in chunk])
        yield chunk, feats


@torch.no_grad()
def predict_folder(model, folder, device, batch_size=8):
    results = {}
    for names, feats in iter_batches(folder, batch_size):
        logits = model(feats.to(device)) + LOG_PRIOR
        probs = torch.softmax(logits, dim=-1)
        top = probs.argmax(-1)
        for name, p, k in zip(names, probs.numpy().tolist(), top.tolist()):  # expect: DEV011
            results[name] = {"label": CLASSES[k], "probs": [round(v, 4) for v in p]}
    return results


def make_demo_folder():
    folder = tempfile.mkdtemp(prefix="y_spectra_")
    g = torch.Generator().manual_seed(3)
    for i in range(11):
        torch.save(torch.randn(64, generator=g), os.path.join(folder, f"sample_{i:03d}.pt"))
    return folder


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--folder", default="")
    ap.add_argument("--weights", default="")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)
    model = load_model(args.weights, device)
    folder = args.folder or make_demo_folder()
    print(json.dumps(predict_folder(model, folder, device), indent=1)[:400])
