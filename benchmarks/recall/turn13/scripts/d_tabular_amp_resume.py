"""Fraud classifier on a synthetic transactions table: embeddings + MLP, AMP training, resumable checkpoints.

Correct look-alike written from the resume and class-weight threads (pytorch #2830 and Lightning's
"Adam optimizer is slower after loading model from checkpoint": load the model, move it, *then*
create the optimizer and load its state; pytorch #122757 on loss weights left on the CPU;
"Attempting to deserialize object on a CUDA device"): checkpoint read with `map_location="cpu"`,
pos_weight moved with the model, autocast and GradScaler enabled only on CUDA.
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

CKPT = os.path.join(tempfile.gettempdir(), "d_tabular_amp_resume.pt")
CARDS = (12, 5, 30)


class FraudNet(nn.Module):
    def __init__(self, cards=CARDS, n_num=6, emb=6, hidden=64):
        super().__init__()
        self.embs = nn.ModuleList(nn.Embedding(c, emb) for c in cards)
        self.mlp = nn.Sequential(nn.Linear(emb * len(cards) + n_num, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, cat, num):
        parts = [e(cat[:, i]) for i, e in enumerate(self.embs)] + [num]
        return self.mlp(torch.cat(parts, 1)).squeeze(1)


def make_data(n=3000, seed=0):
    g = torch.Generator().manual_seed(seed)
    cat = torch.stack([torch.randint(0, c, (n,), generator=g) for c in CARDS], 1)
    num = torch.randn(n, 6, generator=g)
    score = num[:, 0] * 1.5 + (cat[:, 2] == 7).float() * 2 - 3
    y = (torch.rand(n, generator=g) < torch.sigmoid(score)).float()
    return cat, num, y


def main(epochs=2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    torch.manual_seed(0)
    cat, num, y = make_data()
    loader = DataLoader(TensorDataset(cat, num, y), batch_size=256, shuffle=True)

    model = FraudNet()
    ckpt = torch.load(CKPT, map_location="cpu") if os.path.exists(CKPT) else None
    if ckpt is not None:
        model.load_state_dict(ckpt["model"])
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    start = 0
    if ckpt is not None:
        optimizer.load_state_dict(ckpt["optimizer"])
        scaler.load_state_dict(ckpt["scaler"])
        start = ckpt["epoch"] + 1

    pos_weight = ((len(y) - y.sum()) / y.sum().clamp(min=1)).reshape(1).to(device)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    for epoch in range(start, start + epochs):
        for c, n, t in loader:
            c, n, t = c.to(device), n.to(device), t.to(device)
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                loss = criterion(model(c, n).float(), t)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scaler": scaler.state_dict(), "epoch": epoch}, CKPT)


if __name__ == "__main__":
    main()
