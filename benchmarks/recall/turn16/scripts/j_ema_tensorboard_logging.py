"""Denoising autoencoder with an EMA teacher copy and TensorBoard logging (falls back to a
plain-text log when tensorboard is not installed)."""
import copy
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

try:
    from torch.utils.tensorboard import SummaryWriter
except ImportError:  # tensorboard not installed
    SummaryWriter = None


class TextWriter:
    def __init__(self, logdir):
        self.f = open(os.path.join(logdir, "scalars.tsv"), "w")

    def add_scalar(self, tag, value, step):
        self.f.write(f"{step}\t{tag}\t{value:.6f}\n")

    def add_histogram(self, tag, values, step):
        v = values.detach().float().cpu()
        self.add_scalar(tag + "/mean", v.mean().item(), step)
        self.add_scalar(tag + "/std", v.std().item(), step)

    def close(self):
        self.f.close()


class DAE(nn.Module):
    def __init__(self, d=32, h=12):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 24), nn.GELU(), nn.Linear(24, h))
        self.dec = nn.Sequential(nn.Linear(h, 24), nn.GELU(), nn.Linear(24, d))

    def forward(self, x):
        return self.dec(self.enc(x))


@torch.no_grad()
def ema_update(teacher, student, decay):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.lerp_(s, 1.0 - decay)
    for tb, sb in zip(teacher.buffers(), student.buffers()):
        tb.copy_(sb)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    logdir = tempfile.mkdtemp(prefix="dae_")
    writer = SummaryWriter(logdir) if SummaryWriter is not None else TextWriter(logdir)

    basis = torch.randn(4, 32)
    data = (torch.randn(2048, 4) @ basis).to(device)

    student = DAE().to(device)
    teacher = copy.deepcopy(student).requires_grad_(False)
    opt = torch.optim.Adam(student.parameters(), lr=2e-3)

    step = 0
    for epoch in range(3):
        perm = torch.randperm(len(data), device=device)
        for i in range(0, len(data), 128):
            x = data[perm[i:i + 128]]
            noisy = x + 0.3 * torch.randn_like(x)
            recon = student(noisy)
            with torch.no_grad():
                target_code = teacher.enc(x)
            loss = F.mse_loss(recon, x) + 0.1 * F.mse_loss(student.enc(x), target_code)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(teacher, student, decay=0.99)

            if step % 10 == 0:
                writer.add_scalar("train/loss", loss.item(), step)
                writer.add_histogram("train/code", target_code, step)
            step += 1

        with torch.no_grad():
            err_s = F.mse_loss(student(data), data).item()
            err_t = F.mse_loss(teacher(data), data).item()
        writer.add_scalar("val/student", err_s, epoch)
        writer.add_scalar("val/teacher", err_t, epoch)
        print(f"epoch {epoch}: student {err_s:.4f} teacher {err_t:.4f}")

    torch.save({"student": student.state_dict(), "teacher": teacher.state_dict()},
               os.path.join(logdir, "final.pt"))
    writer.close()
    print("logs in", logdir)


if __name__ == "__main__":
    main()
