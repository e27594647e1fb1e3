"""Evaluation that collects on the host: .cpu() in the loop, .item() for scalars, matplotlib and wandb get
host arrays, strings in the batch kept as Python lists."""
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import wandb
from torch.utils.data import DataLoader, Dataset


class Captioned(Dataset):
    def __init__(self, n=64):
        self.images = torch.rand(n, 3, 32, 32)
        self.names = [f"img_{i:03d}.png" for i in range(n)]
        self.labels = torch.randint(0, 4, (n,))

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        return {"image": self.images[i], "name": self.names[i], "label": self.labels[i]}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4)).to(device)
    model.eval()
    wandb.init(project="eval-demo", mode="offline")
    probs, labels, names = [], [], []
    with torch.no_grad():
        for batch in DataLoader(Captioned(), batch_size=16):
            out = model(batch["image"].to(device)).softmax(-1)
            probs.append(out.cpu())
            labels.append(batch["label"])
            names.extend(batch["name"])
            wandb.log({"batch_conf": out.max(-1).values.mean().item()})
    probs = torch.cat(probs).numpy()
    labels = torch.cat(labels).numpy()
    acc = float((probs.argmax(1) == labels).mean())
    wandb.log({"acc": acc, "conf_hist": wandb.Histogram(probs.max(1))})
    fig, ax = plt.subplots()
    ax.imshow(np.corrcoef(probs.T), cmap="viridis")
    fig.savefig("prob_corr.png")
    worst = np.argsort(probs.max(1))[:4]
    print("least confident:", [names[i] for i in worst])


if __name__ == "__main__":
    main()
