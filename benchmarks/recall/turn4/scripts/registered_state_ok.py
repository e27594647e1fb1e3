"""Module state registered properly: rotary frequencies as a non-persistent buffer, task heads in an
nn.ModuleDict, a loss weight moved with its loss module, labels moved with the inputs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TASKS = {"topic": 7, "sentiment": 3}


class Rotary(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)), persistent=False)

    def forward(self, x):
        freqs = torch.outer(torch.arange(x.size(-2), device=x.device, dtype=torch.float32), self.inv_freq)
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack([x1 * freqs.cos() - x2 * freqs.sin(), x1 * freqs.sin() + x2 * freqs.cos()], -1).flatten(-2)


class MultiTask(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.rope = Rotary(d)
        self.heads = nn.ModuleDict({t: nn.Linear(d, n) for t, n in TASKS.items()})

    def forward(self, x, task):
        return self.heads[task](self.rope(x).mean(1))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MultiTask().to(device)
criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5])).to(device)
teacher = nn.Linear(32, 3).to(device)
for task in ["sentiment", "sentiment"]:
    x, y = torch.randn(4, 10, 32), torch.randint(0, 3, (4,))
    x, y = x.to(device), y.to(device)
    logits = model(x, task)
    loss = criterion(logits, y) + F.kl_div(logits.log_softmax(-1), teacher(x.mean(1)).softmax(-1),
                                           reduction="batchmean")
    loss.backward()
print(loss.item())
