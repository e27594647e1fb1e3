"""AMP with a dtype bug: float16 features from autocast are written into a float32 memory
bank. On a GPU index_put fails ("dtypes match"); the CPU path runs without autocast, and a
CPU build switches autocast('cuda') off, so a plain CPU check sees float32 everywhere."""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
use_amp = device == "cuda"
torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)).to(device)
optimizer = torch.optim.SGD(encoder.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
bank = torch.zeros(1024, 16, device=device)
for step in range(40):
    x = torch.randn(64, 32, device=device)
    with torch.autocast(device_type="cuda", enabled=use_amp):
        features = encoder(x)
        loss = features.float().pow(2).mean()
    index = torch.arange(step * 64 % 1024, step * 64 % 1024 + 64, device=device)
    bank[index] = features.detach()
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
