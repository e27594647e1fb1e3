"""Domain-adversarial training: gradient reversal Function, center loss and a prior-corrected CE module."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        # lambd is a Python float; a small jitter keeps the critic from collapsing
        jitter = torch.empty_like(grad_output).uniform_(0.9, 1.1)
        return -ctx.lambd * grad_output * jitter, None


class CenterLoss(nn.Module):
    def __init__(self, n_classes, dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(n_classes, dim))

    def forward(self, feats, labels):
        return ((feats - self.centers[labels]) ** 2).sum(1).mean()


class PriorCorrectedCE(nn.Module):
    """Logit adjustment (Menon et al.) with the training label prior."""

    def __init__(self, class_prior, tau=1.0):
        super().__init__()
        self.register_buffer("log_prior", torch.log(torch.as_tensor(class_prior, dtype=torch.float32)))
        self.tau = tau

    def forward(self, logits, target):
        return F.cross_entropy(logits + self.tau * self.log_prior, target)


class Net(nn.Module):
    def __init__(self, d_in=16, d_feat=8, n_classes=3):
        super().__init__()
        self.feat = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_feat))
        self.cls = nn.Linear(d_feat, n_classes)
        self.dom = nn.Sequential(nn.Linear(d_feat, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x, lambd=1.0):
        f = self.feat(x)
        return f, self.cls(f), self.dom(GradReverse.apply(f, lambd)).squeeze(1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    xs, ys = torch.randn(300, 16, generator=g), torch.randint(0, 3, (300,), generator=g)
    xt = torch.randn(300, 16, generator=g) + 0.5
    src = DataLoader(TensorDataset(xs, ys), batch_size=50, shuffle=True)
    tgt = DataLoader(TensorDataset(xt), batch_size=50, shuffle=True)

    prior = torch.bincount(ys, minlength=3).float() / len(ys)
    model = Net().to(device)
    ce = PriorCorrectedCE(prior).to(device)
    center = CenterLoss(3, 8).to(device)
    opt = torch.optim.Adam(list(model.parameters()) + list(center.parameters()), lr=1e-3)

    for epoch in range(3):
        for (x_s, y_s), (x_t,) in zip(src, tgt):
            x_s, y_s, x_t = x_s.to(device), y_s.to(device), x_t.to(device)
            f_s, logits, d_s = model(x_s)
            _, _, d_t = model(x_t)
            dom_y = torch.cat([torch.ones_like(d_s), torch.zeros_like(d_t)])
            loss = (ce(logits, y_s) + 0.01 * center(f_s, y_s)
                    + F.binary_cross_entropy_with_logits(torch.cat([d_s, d_t]), dom_y))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
