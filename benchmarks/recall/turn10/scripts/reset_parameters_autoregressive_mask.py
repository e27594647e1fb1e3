"""Fully visible sigmoid belief net on binary vectors: a Linear layer whose weights are masked to
be strictly lower-triangular, so that the logit of bit i depends on bits < i only. The mask is
rebuilt together with the weights in reset_parameters.

Thread: https://github.com/zepx/pytorch-weight-prune/issues/2 (masked Linear layers: the mask is
applied to the weight in forward).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class AutoregressiveLinear(nn.Linear):
    def reset_parameters(self):
        super().reset_parameters()
        self.mask = torch.tril(torch.ones(self.out_features, self.in_features), diagonal=-1)  # expect: DEV010
        with torch.no_grad():
            self.weight.mul_(self.mask)

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


def nll(model, x):
    return F.binary_cross_entropy_with_logits(model(x), x, reduction="none").sum(1).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    d = 16
    proto = (torch.rand(4, d) < 0.5).float()
    data = proto[torch.randint(0, 4, (1024,))]
    data = torch.where(torch.rand_like(data) < 0.05, 1 - data, data)
    model = AutoregressiveLinear(d, d).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(5):
        for (x,) in DataLoader(TensorDataset(data), batch_size=64, shuffle=True):
            x = x.to(device)
            loss = nll(model, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: nll {loss.item():.3f} nats")


if __name__ == "__main__":
    main()
