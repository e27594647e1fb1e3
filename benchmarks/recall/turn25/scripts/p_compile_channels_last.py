"""Speed experiment: the same CNN trained eager vs torch.compile, with
channels_last memory format and bf16 autocast on GPUs that support it.

    python p_compile_channels_last.py --compile --channels-last
"""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_cnn(classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.Conv2d(64, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, classes),
    )


def wrap(model, device, channels_last, compile_model):
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
    if compile_model:
        model = torch.compile(model)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--channels-last", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_bf16 = device.type == "cuda" and torch.cuda.is_bf16_supported()

    data = TensorDataset(torch.randn(256, 3, 32, 32), torch.randint(0, 10, (256,)))
    loader = DataLoader(data, batch_size=64, shuffle=True, pin_memory=device.type == "cuda")

    base = make_cnn()
    model = wrap(base, device, args.channels_last, args.compile)
    optimizer = torch.optim.SGD(base.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(args.epochs):
        model.train()
        t0 = time.perf_counter()
        for images, labels in loader:
            base.to(device)  # expect: DEV007
            images.to(device, memory_format=torch.channels_last, non_blocking=True)  # expect: DEV005
            labels = labels.to(device, non_blocking=True)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=use_bf16):
                logits = model(images)  # also: DEV002
                loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        if device.type == "cuda":
            torch.cuda.synchronize()
        print(f"epoch {epoch}: loss {loss.item():.3f} in {time.perf_counter() - t0:.2f}s")


if __name__ == "__main__":
    main()
