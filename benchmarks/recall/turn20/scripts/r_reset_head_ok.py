"""Resume a classifier and swap its head for a new label set."""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, num_classes)
        self.reset_parameters()

    def reset_parameters(self):
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.xavier_uniform_(m.weight)
                nn.init.zeros_(m.bias)

    def reset_classifier(self, num_classes):
        ref = self.head.weight
        self.head = nn.Linear(64, num_classes).to(device=ref.device, dtype=ref.dtype)

    def forward(self, x):
        return self.head(self.body(x))


def train(model, opt, device, steps=20, n_cls=10):
    for _ in range(steps):
        x = torch.randn(32, 20, device=device)
        y = torch.randint(0, n_cls, (32,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ckpt = os.path.join(tempfile.mkdtemp(), "stage1.pt")

    model = Model(10).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print("stage 1", train(model, opt, device))
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, ckpt)

    # resume on whatever hardware is there
    model = Model(10)
    state = torch.load(ckpt, map_location="cpu")
    model.load_state_dict(state["model"])
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    opt.load_state_dict(state["opt"])
    print("resumed", train(model, opt, device))

    model.reset_classifier(5)
    opt = torch.optim.Adam(model.parameters(), lr=5e-4)
    print("stage 2", train(model, opt, device, n_cls=5))
