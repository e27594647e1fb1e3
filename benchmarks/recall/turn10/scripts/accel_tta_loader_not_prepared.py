"""Small image classifier trained with accelerate, then scored on a held-out split with test-time
augmentation (the image and its horizontal flip).

Thread: https://github.com/huggingface/accelerate/issues/1365 (data not moved to cuda: a loader
that never went through accelerator.prepare hands the model CPU batches).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset


class Patches(Dataset):
    def __init__(self, n):
        self.x = torch.rand(n, 3, 32, 32)
        self.y = torch.randint(0, 10, (n,))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"pixel_values": self.x[i], "label": self.y[i]}


def build_model():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
    )


@torch.no_grad()
def predict_tta(model, loader):
    model.eval()
    correct, seen = 0, 0
    for batch in loader:
        x = batch["pixel_values"]
        logits = model(x).softmax(-1) + model(torch.flip(x, dims=[3])).softmax(-1)  # expect: DEV002
        correct += (logits.argmax(-1).cpu() == batch["label"]).sum().item()
        seen += len(x)
    return correct / seen


def main():
    accelerator = Accelerator()
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    train_loader = DataLoader(Patches(512), batch_size=64, shuffle=True)
    model, opt, train_loader = accelerator.prepare(model, opt, train_loader)
    for epoch in range(2):
        model.train()
        for batch in train_loader:
            loss = F.cross_entropy(model(batch["pixel_values"]), batch["label"])
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
    test_loader = DataLoader(Patches(128), batch_size=64)
    accelerator.print(f"tta accuracy: {predict_tta(model, test_loader):.3f}")


if __name__ == "__main__":
    main()
