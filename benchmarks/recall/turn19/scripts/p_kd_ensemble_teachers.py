# Distil an ensemble of teachers into one student on an imbalanced toy problem.
# The teachers are averaged in probability space (temperature-softened).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CFG = {
    "num_classes": 5,
    "in_dim": 20,
    "teacher_widths": [128, 96, 64],
    "student_width": 16,
    "temperature": 3.0,
    "kd_weight": 0.5,
    "epochs": 2,
    "batch_size": 32,
}

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)


def mlp(width):
    return nn.Sequential(
        nn.Linear(CFG["in_dim"], width), nn.ReLU(),
        nn.Linear(width, width), nn.ReLU(),
        nn.Linear(width, CFG["num_classes"]),
    )


def imbalanced_data(n=400):
    probs = torch.tensor([0.5, 0.25, 0.12, 0.08, 0.05])
    y = torch.multinomial(probs, n, replacement=True)
    centers = torch.randn(CFG["num_classes"], CFG["in_dim"]) * 2
    x = centers[y] + torch.randn(n, CFG["in_dim"])
    return x, y


x_train, y_train = imbalanced_data()
loader = DataLoader(TensorDataset(x_train, y_train), batch_size=CFG["batch_size"], shuffle=True)

# inverse-frequency class weights for the hard-label term
counts = torch.bincount(y_train, minlength=CFG["num_classes"]).float()
class_weights = counts.sum() / (CFG["num_classes"] * counts.clamp(min=1))
hard_criterion = nn.CrossEntropyLoss(weight=class_weights)  # expect: DEV012

teachers = []
for w in CFG["teacher_widths"]:
    t = mlp(w)
    # (pretrained weights would be loaded here)
    t.eval()
    teachers.append(t)

student = mlp(CFG["student_width"]).to(device)
optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
T = CFG["temperature"]

for epoch in range(CFG["epochs"]):
    student.train()
    running = 0.0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        with torch.no_grad():
            t_probs = []
            for t in teachers:
                t.to(device)  # expect: DEV007
                t_probs.append(F.softmax(t(xb) / T, dim=-1))
            ens = torch.stack(t_probs).mean(0)
        logits = student(xb)
        kd = F.kl_div(F.log_softmax(logits / T, dim=-1), ens, reduction="batchmean") * T * T
        ce = hard_criterion(logits, yb)
        loss = CFG["kd_weight"] * kd + (1 - CFG["kd_weight"]) * ce
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(f"epoch {epoch}: {running / len(loader):.4f}")
