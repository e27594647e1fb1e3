"""Autoencoder with a straight-through quantiser (custom autograd.Function) and a focal loss module."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RoundToLevels(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n_levels):
        levels = torch.linspace(-1.0, 1.0, n_levels)  # expect: DEV006
        idx = (x.clamp(-1, 1).unsqueeze(-1) - levels).abs().argmin(dim=-1)
        return levels[idx]

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None


class FocalLoss(nn.Module):
    def __init__(self, num_classes, gamma=2.0):
        super().__init__()
        self.num_classes, self.gamma = num_classes, gamma
        self.reset_parameters()

    def reset_parameters(self):
        self.alpha = torch.full((self.num_classes,), 1.0 / self.num_classes)  # expect: DEV010

    def forward(self, logits, target):
        logp = logits.log_softmax(-1).gather(1, target[:, None]).squeeze(1)
        alpha = self.alpha[target] * self.num_classes
        return (-alpha * (1 - logp.exp()) ** self.gamma * logp).mean()


class QuantAE(nn.Module):
    def __init__(self, d=32, code=8, n_levels=5, n_classes=4):
        super().__init__()
        self.n_levels = n_levels
        self.enc = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, code), nn.Tanh())
        self.dec = nn.Sequential(nn.Linear(code, 32), nn.ReLU(), nn.Linear(32, d))
        self.cls = nn.Linear(code, n_classes)

    def forward(self, x):
        z = RoundToLevels.apply(self.enc(x), self.n_levels)
        return self.dec(z), self.cls(z)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(512, 32)
    y = (x[:, :4].argmax(1))
    model = QuantAE().to(device)
    focal = FocalLoss(4).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(5):
        for i in range(0, len(x), 64):
            xb, yb = x[i:i + 64].to(device), y[i:i + 64].to(device)
            recon, logits = model(xb)
            loss = F.mse_loss(recon, xb) + focal(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
