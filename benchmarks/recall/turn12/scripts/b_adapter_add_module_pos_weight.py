"""Fine-tune a pretrained MLP backbone for a rare-event detector with a bottleneck adapter.

Written from "LORA error when running train_text_to_image_lora.py ... Expected
all tensors to be on the same device" (huggingface/diffusers#5897, adapter
layers added after the UNet was sent to the GPU), "How to use net.cuda() when
Network class has list or dict which contains nn layers?" (pytorch/pytorch#4412,
add_module) and "[Bug] RuntimeError: Expected all tensors to be on the same
device" (coqui-ai/TTS#1816, a CPU pos_weight): the adapter is appended to the
moved backbone with add_module, and the positive-class weight stays on the CPU.
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_backbone():
    return nn.Sequential(
        nn.Linear(20, 64), nn.ReLU(),
        nn.Linear(64, 64), nn.ReLU(),
    )


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = build_backbone()
        self.head = nn.Linear(64, 1)

    def forward(self, x):
        return self.head(self.backbone(x)).squeeze(-1)


def rare_events(n=4000, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    score = x[:, :3].sum(dim=1) + 0.3 * torch.randn(n, generator=g)
    return TensorDataset(x, (score > 2.2).float())


def main(epochs=5):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    pretrained = os.path.join(tempfile.gettempdir(), "detector_backbone.pt")
    if not os.path.exists(pretrained):
        torch.save(build_backbone().state_dict(), pretrained)

    model = Detector()
    model.backbone.load_state_dict(torch.load(pretrained, map_location="cpu"))
    model.to(device)
    for p in model.backbone.parameters():
        p.requires_grad_(False)
    model.backbone.add_module("adapter", nn.Sequential(nn.Linear(64, 8), nn.ReLU(), nn.Linear(8, 64)))  # expect: DEV015

    data = rare_events()
    labels = data.tensors[1]
    neg_over_pos = (labels.numel() - labels.sum()) / labels.sum().clamp(min=1)
    criterion = nn.BCEWithLogitsLoss(pos_weight=neg_over_pos.reshape(1))  # expect: DEV012
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(trainable, lr=1e-3)
    loader = DataLoader(data, batch_size=256, shuffle=True)

    for epoch in range(epochs):
        model.train()
        tp = fp = fn = 0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            logits = model(xb)
            loss = criterion(logits, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            pred = logits.detach() > 0
            tp += (pred & (yb > 0.5)).sum().item()
            fp += (pred & (yb < 0.5)).sum().item()
            fn += (~pred & (yb > 0.5)).sum().item()
        precision, recall = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
        print(f"epoch {epoch} loss {loss.item():.4f} precision {precision:.2f} recall {recall:.2f}")


if __name__ == "__main__":
    main()
