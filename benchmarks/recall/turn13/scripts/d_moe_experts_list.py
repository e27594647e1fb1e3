"""Top-1 mixture-of-experts feed-forward layer with a load-balancing loss, trained on a toy regression.

From the "submodules defined in list are not auto-registered" threads (pytorch #1053, #8017,
"model.cuda() doesn't automatically detect layers initialized in a list" for multitask heads) and
MoE repos asked "can it run on GPU?": the experts kept in a plain Python list stay on the CPU
after `model.to(device)`, and the optimizer never sees their weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(dim, hidden), nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class Top1MoE(nn.Module):
    def __init__(self, dim=32, hidden=64, n_experts=4):
        super().__init__()
        self.n_experts = n_experts
        self.router = nn.Linear(dim, n_experts)
        self.experts = [Expert(dim, hidden) for _ in range(n_experts)]  # expect: DEV009

    def forward(self, x):
        tokens = x.reshape(-1, x.size(-1))
        probs = self.router(tokens).softmax(dim=-1)
        gate, choice = probs.max(dim=-1)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            sel = choice == e
            if sel.any():
                out[sel] = expert(tokens[sel]) * gate[sel].unsqueeze(-1)
        frac = F.one_hot(choice, self.n_experts).float().mean(0)
        aux = self.n_experts * (frac * probs.mean(0)).sum()
        return out.view_as(x), aux


class MoERegressor(nn.Module):
    def __init__(self, in_dim=8, dim=32):
        super().__init__()
        self.inp = nn.Linear(in_dim, dim)
        self.moe = Top1MoE(dim)
        self.norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        h = self.inp(x)
        m, aux = self.moe(h)
        return self.out(self.norm(h + m)).squeeze(-1), aux


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    x = torch.randn(1024, 8)
    y = torch.where(x[:, 0] > 0, x[:, 1] * 2, -x[:, 2]) + 0.05 * torch.randn(1024)
    model = MoERegressor().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

    for step in range(200):
        idx = torch.randint(0, 1024, (64,))
        xb, yb = x[idx].to(device), y[idx].to(device)
        pred, aux = model(xb)
        loss = F.mse_loss(pred, yb) + 0.01 * aux
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"step {step}: loss {loss.item():.4f} aux {aux.item():.3f}")


if __name__ == "__main__":
    main()
