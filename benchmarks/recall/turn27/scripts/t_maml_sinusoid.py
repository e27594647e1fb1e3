"""MAML on sinusoid regression, with functional fast weights (second order)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

META_BATCH = 4
INNER_STEPS = 1
INNER_LR = 0.01
K_SHOT = 10


def sample_task(rng):
    amp, phase = rng.uniform(0.1, 5.0), rng.uniform(0, np.pi)
    xs = rng.uniform(-5, 5, size=(K_SHOT, 1)).astype(np.float32)
    xq = rng.uniform(-5, 5, size=(K_SHOT, 1)).astype(np.float32)
    return xs, amp * np.sin(xs + phase), xq, amp * np.sin(xq + phase)


def functional_forward(x, w):
    x = F.relu(F.linear(x, w[0], w[1]))
    x = F.relu(F.linear(x, w[2], w[3]))
    return F.linear(x, w[4], w[5])


def adapt(model, xs, ys):
    fast = [p.clone() for p in model.parameters()]
    for _ in range(INNER_STEPS):
        loss = F.mse_loss(functional_forward(xs, fast), ys)
        grads = torch.autograd.grad(loss, fast, create_graph=True)
        fast = [w - INNER_LR * g for w, g in zip(fast, grads)]
    return fast


def main(iterations=30):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(1)
    model = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for it in range(iterations):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(META_BATCH):
            model.to(device)  # expect: DEV007
            xs_np, ys_np, xq_np, yq_np = sample_task(rng)
            xs = torch.from_numpy(xs_np)  # expect: DEV006
            ys = torch.from_numpy(ys_np).float().to(device)
            xq = torch.from_numpy(xq_np).to(device)
            yq = torch.from_numpy(yq_np).float().to(device)
            fast = adapt(model, xs, ys)
            meta_loss = meta_loss + F.mse_loss(functional_forward(xq, fast), yq)
        (meta_loss / META_BATCH).backward()
        meta_opt.step()

        if it % 10 == 0:
            pred = functional_forward(xq, fast).detach().numpy()  # expect: DEV011
            mse = float(np.mean((pred - yq_np) ** 2))
            print(f"iter {it}: meta-loss {meta_loss.item() / META_BATCH:.3f}, last query mse {mse:.3f}")


if __name__ == "__main__":
    main()
