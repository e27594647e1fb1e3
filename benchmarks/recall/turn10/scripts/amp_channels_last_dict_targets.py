"""Mixed-precision image classification in channels_last memory format: the dataset yields dicts,
the images are moved with non_blocking and memory_format, and the loss runs under autocast with a
GradScaler.

Thread: https://github.com/shuxueslpi/chatGLM-6B-QLoRA/issues/38 (Expected all tensors to be on
the same device ... when checking argument for argument target in method
wrapper_CUDA_nll_loss_forward).
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


def build_model():
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 6),
    )


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    amp_dtype = torch.float16 if use_amp else torch.bfloat16
    model = build_model().to(device, memory_format=torch.channels_last)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
    loader = DataLoader(Scans(), batch_size=32, shuffle=True, pin_memory=use_amp)
    for epoch in range(2):
        for batch in loader:
            images = batch["image"].to(device, non_blocking=True, memory_format=torch.channels_last)
            targets = batch["target"]
            with torch.autocast(device_type=device.type, dtype=amp_dtype, enabled=use_amp):
                logits = model(images)
                loss = criterion(logits, targets)  # expect: DEV004
            opt.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
