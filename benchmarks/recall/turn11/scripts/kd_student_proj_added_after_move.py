"""FitNets-style hint training: a thin student CNN learns to match a wide teacher's feature maps
through a 1x1 regressor attached to the student for the hint stage, plus the usual label loss.

Thread: https://github.com/huggingface/setfit/issues/169 (RuntimeError: Expected all tensors to
be on the same device: a differentiable head created on the CPU next to a body on the GPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ConvNet(nn.Module):
    def __init__(self, width, classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(4))
        self.fc = nn.Linear(width * 16, classes)

    def forward(self, x, return_feat=False):
        f = self.features(x)
        out = self.fc(f.flatten(1))
        return (out, f) if return_feat else out


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    teacher = ConvNet(64).to(device).eval()
    student = ConvNet(16)
    student.to(device)
    student.regressor = nn.Conv2d(16, 64, kernel_size=1)  # expect: DEV015
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    data = TensorDataset(torch.randn(256, 3, 32, 32), torch.randint(0, 10, (256,)))
    for epoch in range(2):
        student.train()
        for x, y in DataLoader(data, batch_size=32, shuffle=True):
            x, y = x.to(device), y.to(device)
            with torch.no_grad():
                _, t_feat = teacher(x, return_feat=True)
            s_out, s_feat = student(x, return_feat=True)
            hint = F.mse_loss(student.regressor(s_feat), t_feat)
            loss = F.cross_entropy(s_out, y) + 0.5 * hint
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: hint {hint.item():.4f} total {loss.item():.4f}")


if __name__ == "__main__":
    main()
