"""MC-dropout regression on a 1-D toy problem (Gal & Ghahramani style): predictive mean and
std from T stochastic forward passes, plotted against the data."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class DropoutMLP(nn.Module):
    def __init__(self, p=0.1, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(1, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


def enable_mc_dropout(model):
    model.eval()
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()


def mc_predict(model, x, T=50):
    enable_mc_dropout(model)
    with torch.no_grad():
        samples = torch.stack([model(x) for _ in range(T)])
    return samples.mean(0), samples.std(0)


def main():
    rng = np.random.default_rng(0)
    x_np = np.concatenate([rng.uniform(-4, -1, 80), rng.uniform(1, 4, 80)]).astype(np.float32)
    y_np = (np.sin(x_np) + 0.1 * rng.normal(size=x_np.shape)).astype(np.float32)
    x_train = torch.from_numpy(x_np).unsqueeze(1)
    y_train = torch.from_numpy(y_np).unsqueeze(1)

    model = DropoutMLP()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-5)
    loss_fn = nn.MSELoss()

    for step in range(300):
        model = model.to(device)  # expect: DEV007
        model.train()
        idx = torch.randint(0, len(x_train), (32,))
        xb, yb = x_train[idx].to(device), y_train[idx].to(device)
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f"step {step} mse {loss.item():.4f}")

    x_test = torch.linspace(-6, 6, 200).unsqueeze(1).to(device)
    mean, std = mc_predict(model, x_test, T=50)
    mean = mean.cpu().squeeze(1)
    std = std.squeeze(1)

    in_dist = (x_test.abs().squeeze(1) > 1) & (x_test.abs().squeeze(1) < 4)
    print("mean std in-distribution: ", std[in_dist].mean().item())
    print("mean std out-of-distribution:", std[~in_dist].mean().item())

    std_np = std.numpy()  # expect: DEV011
    xs = x_test.cpu().squeeze(1).numpy()
    plt.figure(figsize=(6, 3))
    plt.scatter(x_np, y_np, s=6, c="k")
    plt.plot(xs, mean.numpy(), c="C0")
    plt.fill_between(xs, mean.numpy() - 2 * std_np, mean.numpy() + 2 * std_np, alpha=0.3)
    plt.savefig("mc_dropout.png")
    print("90th pct std:", np.percentile(std_np, 90))


if __name__ == "__main__":
    main()
