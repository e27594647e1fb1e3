"""Custom autograd.Functions that allocate with *_like / new_* and device=, so they follow their inputs."""
import torch
import torch.nn as nn


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd, None


class ClampedExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, max_val=10.0):
        y = torch.exp(x.clamp(max=max_val))
        inside = torch.ones_like(x)
        inside[x > max_val] = 0.0
        ctx.save_for_backward(y, inside)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        y, inside = ctx.saved_tensors
        scale = grad_output.new_full((1,), 1.0)
        noise_floor = torch.zeros(grad_output.shape, device=grad_output.device)
        return grad_output * y * inside * scale + noise_floor, None


class DomainAdversarial(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(20, 64), nn.ReLU())
        self.label_head = nn.Linear(64, 3)
        self.domain_head = nn.Linear(64, 2)

    def forward(self, x, lambd=0.5):
        f = self.features(x)
        rate = ClampedExp.apply(self.label_head(f))
        return rate, self.domain_head(GradReverse.apply(f, lambd))


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = DomainAdversarial().to(device)
    x = torch.randn(32, 20, device=device)
    rate, dom = model(x)
    (rate.mean() + nn.functional.cross_entropy(dom, torch.randint(0, 2, (32,), device=device))).backward()
    print(model.features[0].weight.grad.norm().item())
