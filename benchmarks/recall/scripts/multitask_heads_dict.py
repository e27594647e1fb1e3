"""Multi-task model on a shared encoder: one classification head per task, chosen by name."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TASKS = {"sentiment": 3, "topic": 5, "toxicity": 2}


class MultiTaskModel(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.encoder = nn.LSTM(dim, dim, batch_first=True)
        self.heads = {task: nn.Linear(dim, n) for task, n in TASKS.items()}  # expect: DEV009

    def forward(self, tokens, task):
        _, (h, _) = self.encoder(self.embedding(tokens))
        return self.heads[task](h[-1])


def task_batches(n_steps=6, batch_size=4, seq_len=9):
    names = list(TASKS)
    for step in range(n_steps):
        task = names[step % len(names)]
        yield task, torch.randint(0, 100, (batch_size, seq_len)), torch.randint(0, TASKS[task], (batch_size,))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MultiTaskModel().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step, (task, tokens, labels) in enumerate(task_batches()):
    tokens, labels = tokens.to(device), labels.to(device)
    logits = model(tokens, task)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} task {task:<9} loss {loss.item():.4f}")
