"""Mixed-precision training with gradient accumulation over micro-batches."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

accum_steps = 4
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"

model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 8)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
criterion = nn.CrossEntropyLoss()
loader = DataLoader(TensorDataset(torch.randn(64, 64), torch.randint(0, 8, (64,))), batch_size=4, shuffle=True, pin_memory=use_amp)

model.train()
optimizer.zero_grad(set_to_none=True)
for step, (inputs, targets) in enumerate(loader):
    inputs = inputs.cuda(non_blocking=True)  # expect: DEV001
    targets = targets.to(device, non_blocking=True)
    with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
        loss = criterion(model(inputs), targets) / accum_steps
    scaler.scale(loss).backward()
    if (step + 1) % accum_steps == 0:
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        print(f"optimizer step {(step + 1) // accum_steps}: loss {loss.item() * accum_steps:.4f}")
