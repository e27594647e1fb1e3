# Multi-label tagging with accelerate: metrics on the accelerator device,
# both loaders prepared, unwrapped model saved and reloaded for CPU inference.
import argparse
import os

import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MultilabelAUROC, MultilabelF1Score

NUM_TAGS, EMB = 6, 48


def split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, EMB, generator=g)
    return TensorDataset(x, (x[:, :NUM_TAGS] > 0.3).long())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/tagger")
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()

    accelerator = Accelerator(cpu=args.cpu)
    model = nn.Sequential(nn.Linear(EMB, 96), nn.ReLU(), nn.Linear(96, NUM_TAGS))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_dl = DataLoader(split(256, 0), batch_size=32, shuffle=True)
    eval_dl = DataLoader(split(64, 1), batch_size=32)
    model, optimizer, train_dl, eval_dl = accelerator.prepare(model, optimizer, train_dl, eval_dl)

    f1 = MultilabelF1Score(num_labels=NUM_TAGS).to(accelerator.device)
    auroc = MultilabelAUROC(num_labels=NUM_TAGS).to(accelerator.device)
    criterion = nn.BCEWithLogitsLoss()

    for epoch in range(3):
        model.train()
        for x, y in train_dl:
            loss = criterion(model(x), y.float())
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        for x, y in eval_dl:
            with torch.no_grad():
                probs = torch.sigmoid(model(x))
            probs, y = accelerator.gather_for_metrics((probs, y))
            f1.update(probs, y)
            auroc.update(probs, y)
        accelerator.print(f"epoch {epoch} f1={f1.compute():.3f} auroc={auroc.compute():.3f}")
        f1.reset()
        auroc.reset()

    accelerator.wait_for_everyone()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "tagger.pt")
    accelerator.save(accelerator.unwrap_model(model).state_dict(), path)

    if accelerator.is_main_process:
        cpu_model = nn.Sequential(nn.Linear(EMB, 96), nn.ReLU(), nn.Linear(96, NUM_TAGS))
        cpu_model.load_state_dict(torch.load(path, map_location="cpu"))
        print(torch.sigmoid(cpu_model(torch.randn(2, EMB))).detach().numpy().round(2))


if __name__ == "__main__":
    main()
