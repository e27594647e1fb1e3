"""Meta-SGD style few-shot regression/classification: a learned inner-loop step size,
functional inner updates with torch.func.functional_call, second-order outer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

N_WAY, K_SHOT, Q_QUERY, DIM = 5, 2, 4, 16


def sample_task(g):
    protos = torch.randn(N_WAY, DIM, generator=g) * 2
    def draw(k):
        y = torch.arange(N_WAY).repeat_interleave(k)
        return protos[y] + torch.randn(len(y), DIM, generator=g), y
    x_s, y_s = draw(K_SHOT)
    x_q, y_q = draw(Q_QUERY)
    return x_s, y_s, x_q, y_q


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(DIM, 32), nn.ReLU(), nn.Linear(32, N_WAY))

    def forward(self, x):
        return self.body(x)


class MetaLearner(nn.Module):
    def __init__(self, inner_steps=2):
        super().__init__()
        self.net = Classifier()
        self.inner_steps = inner_steps
        self.inner_lr = torch.full((1,), 0.4, requires_grad=True)  # expect: DEV010

    def adapt(self, x_spt, y_spt):
        params = dict(self.net.named_parameters())
        for _ in range(self.inner_steps):
            loss = F.cross_entropy(functional_call(self.net, params, (x_spt,)), y_spt)
            grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
            params = {n: p - self.inner_lr * g for (n, p), g in zip(params.items(), grads)}
        return params

    def forward(self, x_spt, y_spt, x_qry):
        fast = self.adapt(x_spt, y_spt)
        return functional_call(self.net, fast, (x_qry,))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    learner = MetaLearner().to(device)
    meta_opt = torch.optim.Adam(list(learner.parameters()) + [learner.inner_lr], lr=1e-3)
    g = torch.Generator().manual_seed(0)

    for it in range(20):
        meta_opt.zero_grad()
        meta_loss, acc = 0.0, 0.0
        for _ in range(4):  # meta-batch of tasks
            x_s, y_s, x_q, y_q = sample_task(g)
            x_s, y_s, x_q = x_s.to(device), y_s.to(device), x_q.to(device)
            logits = learner(x_s, y_s, x_q)
            meta_loss = meta_loss + F.cross_entropy(logits, y_q)  # expect: DEV004
            acc += (logits.argmax(1).cpu() == y_q).float().mean().item() / 4
        (meta_loss / 4).backward()
        meta_opt.step()
        if it % 5 == 0:
            print(f"iter {it} meta-loss {meta_loss.item() / 4:.3f} query acc {acc:.3f} lr {learner.inner_lr.item():.3f}")


if __name__ == "__main__":
    main()
