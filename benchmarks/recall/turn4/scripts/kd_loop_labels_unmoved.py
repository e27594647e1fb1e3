"""Knowledge distillation: a small student learns from a frozen teacher and the hard labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
teacher = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 5)).to(device).eval()
student = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(torch.randn(320, 20), torch.randint(0, 5, (320,))), batch_size=32, shuffle=True)
T, alpha = 4.0, 0.7

for epoch in range(2):
    for inputs, targets in loader:
        inputs = inputs.to(device, non_blocking=True)
        with torch.no_grad():
            t_logits = teacher(inputs)
        s_logits = student(inputs)
        soft = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
        hard = F.cross_entropy(s_logits, targets)  # expect: DEV004
        loss = alpha * soft + (1 - alpha) * hard
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
