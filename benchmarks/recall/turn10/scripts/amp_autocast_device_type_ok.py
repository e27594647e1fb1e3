"""Correct look-alike: mixed precision written for any machine. autocast gets device.type, the
GradScaler is enabled only on CUDA, both tensors of the dict batch are moved, and the running loss
is accumulated as a 0-dim device tensor and read once per epoch.

Thread: https://github.com/karpathy/nanoGPT/pull/27 (do not hard-code the device in autocast, so
the script dry-runs on a laptop).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Scans(Dataset):
    def __init__(self, n=512):
        self.images = torch.rand(n, 3, 48, 48)
        self.targets = torch.randint(0, 6, (n,))

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return {"image": self.images[i], "target": self.targets[i]}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 6),
    ).to(device, memory_format=torch.channels_last)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
    loader = DataLoader(Scans(), batch_size=32, shuffle=True, pin_memory=use_amp)
    for epoch in range(2):
        running = torch.zeros((), device=device)
        for batch in loader:
            batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            images = batch["image"].contiguous(memory_format=torch.channels_last)
            with torch.autocast(device_type=device.type, dtype=torch.float16 if use_amp else torch.bfloat16,
                                enabled=use_amp):
                loss = criterion(model(images), batch["target"])
            opt.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            running += loss.detach()
        print(epoch, (running / len(loader)).item())


if __name__ == "__main__":
    main()
