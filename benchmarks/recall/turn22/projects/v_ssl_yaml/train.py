"""Entry point: python train.py [configs/fixmatch.yaml]"""
import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

from sslkit import (EMATeacher, LogitAdjustedNet, build_supervised_loss, load_config, per_class_recall,
                    unsupervised_loss)


def long_tailed_toy(n, imbalance, d=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.multinomial(torch.tensor(imbalance), n, replacement=True, generator=g)
    centers = torch.randn(len(imbalance), d, generator=g) * 1.5
    return centers[y] + torch.randn(n, d, generator=g), y


def augment(x, strength):
    return x * (torch.rand_like(x) > strength * 0.5) + strength * torch.randn_like(x)


@torch.no_grad()
def evaluate(net, loader, device, n_classes):
    preds, targets = [], []
    for xb, yb in loader:
        preds.append(net(xb.to(device), adjust=True).argmax(-1))
        targets.append(yb.to(device))
    return per_class_recall(torch.cat(preds), torch.cat(targets), n_classes)


def main(cfg_path="configs/fixmatch.yaml"):
    cfg = load_config(cfg_path)
    device, tr, dc = cfg["device"], cfg["train"], cfg["data"]
    torch.manual_seed(cfg["seed"])

    x, y = long_tailed_toy(dc["n_labelled"] + dc["n_unlabelled"], dc["imbalance"], seed=cfg["seed"])
    xl, yl, xu = x[: dc["n_labelled"]], y[: dc["n_labelled"]], x[dc["n_labelled"]:]
    xt, yt = long_tailed_toy(400, [0.25] * 4, seed=cfg["seed"] + 1)
    lab = DataLoader(TensorDataset(xl, yl), batch_size=tr["batch_size"], shuffle=True, drop_last=True)
    unlab = DataLoader(TensorDataset(xu), batch_size=tr["batch_size"] * tr["mu"], shuffle=True, drop_last=True)
    test = DataLoader(TensorDataset(xt, yt), batch_size=200)

    model = LogitAdjustedNet(16, cfg["n_classes"], dc["imbalance"], cfg["model"]["hidden"], cfg["model"]["tau"])
    ema = EMATeacher(model, tr["ema_decay"])
    model.to(device)
    sup_loss = build_supervised_loss(yl, cfg["n_classes"])
    opt = torch.optim.SGD(model.parameters(), lr=tr["lr"], momentum=0.9, nesterov=True)

    lab_it, unlab_it = iter(lab), iter(unlab)
    for step in range(1, tr["steps"] + 1):
        try:
            xb, yb = next(lab_it)
        except StopIteration:
            lab_it = iter(lab)
            xb, yb = next(lab_it)
        try:
            (ub,) = next(unlab_it)
        except StopIteration:
            unlab_it = iter(unlab)
            (ub,) = next(unlab_it)
        xb, yb, ub = xb.to(device), yb.to(device), ub.to(device)

        model.train()
        logits_x = model(xb)
        with torch.no_grad():
            logits_w = ema(augment(ub, 0.1))
        logits_s = model(augment(ub, 0.5))
        lu, mask_rate = unsupervised_loss(logits_w, logits_s, tr["threshold"])
        loss = sup_loss(logits_x, yb) + tr["lambda_u"] * lu

        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)

        if step % tr["eval_every"] == 0:
            rec = evaluate(ema, test, device, cfg["n_classes"])
            print(f"step {step}: loss={loss.item():.3f} mask={mask_rate.item():.2f} "
                  f"recall={[round(float(r), 2) for r in rec]}")


if __name__ == "__main__":
    main(*sys.argv[1:])
