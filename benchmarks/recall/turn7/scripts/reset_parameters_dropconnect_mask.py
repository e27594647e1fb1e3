"""A linear layer with a fixed random connectivity pattern (a sparse 'lottery' mask) redrawn
whenever the parameters are reset."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseLinear(nn.Linear):
    def __init__(self, in_features, out_features, density=0.3):
        self.density = density
        super().__init__(in_features, out_features)

    def reset_parameters(self):
        super().reset_parameters()
        self.connectivity = (torch.rand(self.out_features, self.in_features) < self.density).float()  # expect: DEV010
        with torch.no_grad():
            self.weight.mul_(1 / math.sqrt(self.density))

    def forward(self, x):
        return F.linear(x, self.weight * self.connectivity, self.bias)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(SparseLinear(20, 40), nn.ReLU(), SparseLinear(40, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.randn(16, 20, device=device)
        y = torch.randint(0, 2, (16,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
