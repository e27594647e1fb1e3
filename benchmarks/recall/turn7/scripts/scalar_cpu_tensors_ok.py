"""0-dim CPU tensors next to device tensors (legal in PyTorch): a loss scale, a clip value from
torch.tensor(float), a schedule entry taken by a Python int, .item() of CPU statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    warmup = torch.linspace(0.1, 1.0, 20)
    loss_scale = torch.tensor(0.5)
    clip = torch.tensor(3.0)
    for step in range(20):
        x = torch.randn(32, 5, device=device)
        y = x.sum(1, keepdim=True)
        pred = torch.clamp(model(x), -clip.item(), clip.item())
        loss = F.mse_loss(pred, y) * loss_scale * warmup[step]
        loss = loss + torch.tensor(0.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
