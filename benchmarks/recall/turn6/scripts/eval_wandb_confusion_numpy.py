"""Evaluation of a trained audio-tag classifier: predictions are collected per batch and logged
to Weights & Biases as a confusion matrix at the end."""
import argparse

import torch
import torch.nn as nn
import wandb
from torch.utils.data import DataLoader, TensorDataset

CLASSES = ["dog", "rain", "siren", "speech"]


def build_model():
    return nn.Sequential(nn.Conv1d(1, 8, 9, stride=4), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(),
                         nn.Linear(8, len(CLASSES)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default=None)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_model()
    if args.ckpt:
        model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    model.to(device).eval()
    wave = torch.randn(200, 1, 800)
    labels = torch.randint(0, 4, (200,))
    loader = DataLoader(TensorDataset(wave, labels), batch_size=40)
    run = wandb.init(project="audio-tags", mode="offline")
    preds, trues = [], []
    with torch.no_grad():
        for xb, yb in loader:
            logits = model(xb.to(device))
            preds.append(logits.argmax(dim=1))
            trues.append(yb)
    y_pred = torch.cat(preds).numpy()  # expect: DEV011
    y_true = torch.cat(trues).numpy()
    run.log({"confusion": wandb.plot.confusion_matrix(y_true=y_true, preds=y_pred, class_names=CLASSES)})
    run.finish()


if __name__ == "__main__":
    main()
