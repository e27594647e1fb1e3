"""Loss modules done right: a cost matrix in a buffer, an identity made on the target's device,
a 0-dim CPU margin (legal next to device tensors)."""
import torch
import torch.nn as nn


class OrdinalCostLoss(nn.Module):
    def __init__(self, n_grades):
        super().__init__()
        g = torch.arange(n_grades, dtype=torch.float32)
        self.register_buffer("cost", (g[:, None] - g[None, :]).abs())

    def forward(self, logits, target):
        return (logits.softmax(-1) * self.cost[target]).sum(-1).mean()


class SoftDice(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.n_classes = n_classes
        self.margin = torch.tensor(1.0)

    def forward(self, logits, target):
        probs = logits.softmax(-1)
        one_hot = torch.eye(self.n_classes, device=target.device)[target]
        inter = (probs * one_hot).sum(0)
        return 1 - ((2 * inter + self.margin) / (probs.sum(0) + one_hot.sum(0) + self.margin)).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(6, 4).to(device)
    ordinal = OrdinalCostLoss(4).to(device)
    dice = SoftDice(4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = torch.randn(32, 6, device=device)
        y = torch.randint(0, 4, (32,), device=device)
        out = model(x)
        loss = ordinal(out, y) + dice(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
