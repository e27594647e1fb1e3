"""Look-alike of amp_gradscaler_cuda_only.py: autocast and GradScaler follow the chosen device, so the
script runs (in bfloat16 autocast, unscaled) on a CPU-only machine.

Thread: https://github.com/facebookresearch/fairchem/pull/703 (autocast enabled only when not on CPU).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
    loss_fn = nn.BCEWithLogitsLoss()
    ds = TensorDataset(torch.rand(32, 3, 32, 32), (torch.rand(32, 1, 32, 32) > 0.5).float())
    for x, y in DataLoader(ds, batch_size=8):
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        with torch.autocast(device_type=device.type, dtype=torch.float16 if use_amp else torch.bfloat16):
            loss = loss_fn(model(x), y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    print(loss.item())


if __name__ == "__main__":
    main()
