"""The "start fresh" idiom: delete old logs, append to a history file, checkpoint every step
over the user's own model.pt. None of it may touch the user's tree."""
import os
import shutil

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
shutil.rmtree("logs", ignore_errors=True)
os.makedirs("logs")
with open("history.txt", "a") as f:
    f.write("run started\n")
torch.manual_seed(0)
model = nn.Linear(4, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4).to(device), torch.randn(8, 1).to(device)
for step in range(100):
    optimizer.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    torch.save(model.state_dict(), "model.pt")
    with open(os.path.join("logs", "events.log"), "a") as log:
        log.write(f"{step}\n")
