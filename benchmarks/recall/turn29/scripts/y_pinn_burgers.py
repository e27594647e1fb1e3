"""Physics-informed network for the viscous Burgers equation u_t + u u_x = nu u_xx."""
import math

import torch
import torch.nn as nn

NU = 0.01 / math.pi
DEVICE = torch.device("cuda")  # expect: DEV001


class PINN(nn.Module):
    def __init__(self, width=32, depth=4):
        super().__init__()
        layers = [nn.Linear(2, width), nn.Tanh()]
        for _ in range(depth - 1):
            layers += [nn.Linear(width, width), nn.Tanh()]
        layers.append(nn.Linear(width, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


def d(out, inp):
    return torch.autograd.grad(out, inp, grad_outputs=torch.ones(out.shape), create_graph=True)[0]  # expect: DEV006


def residual(model, x, t):
    u = model(x, t)
    u_t, u_x = d(u, t), d(u, x)
    u_xx = d(u_x, x)
    return u_t + u * u_x - NU * u_xx


def main(steps=20, n_f=256, n_b=64):
    model = PINN().to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    x_f = (torch.rand(n_f, 1, device=DEVICE) * 2 - 1).requires_grad_(True)
    t_f = torch.rand(n_f, 1, device=DEVICE).requires_grad_(True)
    x0 = torch.linspace(-1, 1, n_b, device=DEVICE).unsqueeze(1)
    t0 = torch.zeros_like(x0)
    u0 = -torch.sin(math.pi * x0)
    tb = torch.rand(n_b, 1, device=DEVICE)
    xb = torch.where(torch.rand(n_b, 1, device=DEVICE) < 0.5, -1.0, 1.0)

    for step in range(steps):
        loss_f = residual(model, x_f, t_f).pow(2).mean()
        loss_0 = (model(x0, t0) - u0).pow(2).mean()
        loss_b = model(xb, tb).pow(2).mean()
        loss = loss_f + loss_0 + loss_b
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.5f}")


if __name__ == "__main__":
    main()
