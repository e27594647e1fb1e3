"""Self-distillation: the teacher is a deep copy taken before the student moved (DEV016), so
the teacher stays on the CPU and meets the device batch."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
student = nn.Linear(8, 4)
teacher = copy.deepcopy(student)
student.to(device)
optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(8, 8).to(device)
    with torch.no_grad():
        target = teacher(x)
    loss = (student(x) - target).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
