"""Post-hoc calibration: collect validation logits, fit a single temperature with
LBFGS on the NLL, and report the expected calibration error before and after."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_model(n_in=24, n_classes=5):
    return nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, n_classes))


def expected_calibration_error(probs, labels, n_bins=10):
    conf, pred = probs.max(1)
    acc = (pred == labels).float()
    edges = torch.linspace(0, 1, n_bins + 1)
    ece = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        in_bin = (conf > lo) & (conf <= hi)
        if in_bin.any():
            ece += in_bin.float().mean() * (conf[in_bin].mean() - acc[in_bin].mean()).abs()
    return float(ece)


def train_step(model, opt, xb, yb, device):
    model.train()
    xb, yb = xb.to(device), yb.to(device)
    opt.zero_grad()
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    opt.step()
    return loss.item()


def collect_logits(model, loader, device):
    model.eval()
    logits_all, labels_all = [], []
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            logits_all.append(model(images))
            labels_all.append(labels)
    return torch.cat(logits_all), torch.cat(labels_all)


def fit_temperature(logits, labels, device, max_iter=50):
    log_t = torch.zeros(1, device=device, requires_grad=True)
    opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=max_iter)

    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(logits / log_t.exp(), labels)
        loss.backward()
        return loss

    opt.step(closure)
    return log_t.exp().item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(11)
    x = torch.randn(400, 24, generator=g)
    y = (x[:, :5] * 3).argmax(1)
    loader = DataLoader(TensorDataset(x, y), batch_size=100)

    model = make_model().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(40):  # quick training run
        for xb, yb in loader:
            train_step(model, opt, xb, yb, device)

    logits, labels = collect_logits(model, loader, device)
    t = fit_temperature(logits, labels, device)
    before = expected_calibration_error(logits.softmax(1).cpu(), labels.cpu())
    after = expected_calibration_error((logits / t).softmax(1).cpu(), labels.cpu())
    print(f"T={t:.3f}  ECE before={before:.4f} after={after:.4f}")


if __name__ == "__main__":
    main()
