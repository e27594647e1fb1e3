"""Mixed-precision segmentation training (autocast + GradScaler) that resumes from its last checkpoint.

From resume threads: "optimizer load_state_dict() problem?" (pytorch #2830: `exp_avg.mul_(beta1)
.add_(1 - beta1, grad)` failing after the optimizer state was restored while the model was still
on the CPU, the chatbot tutorial fix, "train --recover doesn't work with GPU + Adam optimizer"),
and "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False"
when a checkpoint written on a GPU box is resumed on a laptop.
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

CKPT = os.path.join(tempfile.gettempdir(), "d_amp_resume_segmentation_last.pt")


class TinySegNet(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.ConvTranspose2d(32, 16, 2, stride=2), nn.ReLU(),
                                nn.Conv2d(16, n_classes, 1))

    def forward(self, x):
        return self.up(self.down(x))


def batches(n_batches=8, bs=8, size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n_batches):
        img = torch.rand(bs, 3, size, size, generator=g)
        mask = (img[:, 0] > 0.6).long()
        yield img, mask


def main(epochs=2):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    torch.manual_seed(0)
    model = TinySegNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    start_epoch = 0

    if os.path.exists(CKPT):
        ckpt = torch.load(CKPT)  # expect: DEV008
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        scaler.load_state_dict(ckpt["scaler"])
        start_epoch = ckpt["epoch"] + 1
        print(f"resumed from epoch {ckpt['epoch']}")
    model.to(device)

    for epoch in range(start_epoch, start_epoch + epochs):
        model.train()
        for img, mask in batches(seed=epoch):
            img, mask = img.to(device), mask.to(device)
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                logits = model(img)
                loss = F.cross_entropy(logits, mask)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scaler": scaler.state_dict(), "epoch": epoch}, CKPT)


if __name__ == "__main__":
    main()
