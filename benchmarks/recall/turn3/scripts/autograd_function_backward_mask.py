"""A straight-through estimator for binarised activations as a custom autograd.Function."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinarizeSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, clip=1.0):
        ctx.save_for_backward(x)
        ctx.clip = clip
        return torch.sign(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        window = torch.zeros(x.shape)  # expect: DEV006
        window[x.abs() <= ctx.clip] = 1.0
        return grad_output * window, None


class BinaryMLP(nn.Module):
    def __init__(self, sizes=(784, 512, 512, 10)):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.norms = nn.ModuleList(nn.BatchNorm1d(b) for b in sizes[1:-1])

    def forward(self, x):
        x = x.flatten(1)
        for layer, norm in zip(self.layers[:-1], self.norms):
            x = BinarizeSTE.apply(norm(layer(x)))
        return self.layers[-1](x)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BinaryMLP().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(20):
        x = torch.rand(64, 1, 28, 28, device=device)
        y = torch.randint(0, 10, (64,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
