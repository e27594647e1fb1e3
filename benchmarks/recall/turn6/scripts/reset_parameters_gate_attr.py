"""Gated linear unit layer with a fixed sparsity pattern drawn in reset_parameters, so that
re-initialising the layer also redraws which connections exist."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseGLU(nn.Module):
    def __init__(self, d_in, d_out, density=0.5):
        super().__init__()
        self.d_in, self.d_out, self.density = d_in, d_out, density
        self.weight = nn.Parameter(torch.empty(2 * d_out, d_in))
        self.bias = nn.Parameter(torch.empty(2 * d_out))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        nn.init.zeros_(self.bias)
        self.connectivity = (torch.rand(2 * self.d_out, self.d_in) < self.density).float()  # expect: DEV010

    def forward(self, x):
        h = F.linear(x, self.weight * self.connectivity, self.bias)
        a, b = h.chunk(2, dim=-1)
        return a * torch.sigmoid(b)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(SparseGLU(10, 32), SparseGLU(32, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(30):
        x = torch.randn(64, 10, device=device)
        y = x[:, :2].prod(1, keepdim=True)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
