"""Resuming done right: model moved first, the optimizer built on the moved parameters, then its state loaded
(load_state_dict casts the state to each parameter's device)."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

CKPT = "ckpt/gru_last.pt"


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.GRU(8, 32, batch_first=True)
    head = nn.Linear(32, 1)
    model.to(device)
    head.to(device)
    optimizer = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=1e-3)
    start = 0
    if os.path.exists(CKPT):
        ckpt = torch.load(CKPT, map_location=device)
        model.load_state_dict(ckpt["gru"])
        head.load_state_dict(ckpt["head"])
        optimizer.load_state_dict(ckpt["optim"])
        start = ckpt["epoch"] + 1
    for epoch in range(start, start + 3):
        x = torch.randn(16, 20, 8, device=device)
        out, _ = model(x)
        loss = F.mse_loss(head(out[:, -1]), x[:, :, 0].mean(1, keepdim=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        os.makedirs("ckpt", exist_ok=True)
        torch.save({"gru": model.state_dict(), "head": head.state_dict(), "optim": optimizer.state_dict(),
                    "epoch": epoch}, CKPT)
    print(loss.item())


if __name__ == "__main__":
    main()
