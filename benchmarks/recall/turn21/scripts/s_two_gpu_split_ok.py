"""Feature-distillation with the frozen teacher on a second GPU when there is one, on
the student's device otherwise."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def pick_devices():
    if not torch.cuda.is_available():
        cpu = torch.device("cpu")
        return cpu, cpu
    main_dev = torch.device("cuda:0")
    aux_dev = torch.device("cuda:1") if torch.cuda.device_count() > 1 else main_dev
    return main_dev, aux_dev


class Net(nn.Module):
    def __init__(self, width, d_feat=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(12, width), nn.ReLU(), nn.Linear(width, d_feat))
        self.head = nn.Linear(d_feat, 4)

    def forward(self, x):
        f = self.body(x)
        return f, self.head(f)


def main():
    torch.manual_seed(0)
    student_dev, teacher_dev = pick_devices()
    teacher = Net(128).to(teacher_dev).eval()
    student = Net(24).to(student_dev)
    opt = torch.optim.SGD(student.parameters(), lr=0.05)

    x_all, y_all = torch.randn(64, 12), torch.randint(0, 4, (64,))
    for epoch in range(3):
        for i in range(0, 64, 16):
            x, y = x_all[i:i + 16], y_all[i:i + 16]
            with torch.no_grad():
                t_feat, _ = teacher(x.to(teacher_dev))
            s_feat, s_logits = student(x.to(student_dev))
            loss = F.cross_entropy(s_logits, y.to(student_dev)) + F.mse_loss(s_feat, t_feat.to(student_dev))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
