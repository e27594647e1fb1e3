# Quantization-aware training of an MLP on synthetic data.
# Weights and activations go through a fake-quant op with a clipped
# straight-through estimator (gradients outside the clip range are zeroed).
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, bits):
        qmax = 2 ** (bits - 1) - 1
        ctx.save_for_backward(x, scale)
        ctx.qmax = qmax
        q = torch.clamp(torch.round(x / scale), -qmax - 1, qmax)
        return q * scale

    @staticmethod
    def backward(ctx, grad_out):
        x, scale = ctx.saved_tensors
        inside = (x / scale).abs() <= ctx.qmax
        grad_in = torch.where(inside, grad_out, torch.zeros(grad_out.shape))  # expect: DEV006
        return grad_in, None, None


fake_quant = FakeQuantSTE.apply


class QuantLinear(nn.Linear):
    def __init__(self, in_features, out_features, bits=8):
        super().__init__(in_features, out_features)
        self.bits = bits
        self.register_buffer("w_scale", torch.tensor(1.0))
        self.register_buffer("a_scale", torch.tensor(1.0))

    @torch.no_grad()
    def calibrate(self, x):
        qmax = 2 ** (self.bits - 1) - 1
        self.w_scale.fill_(self.weight.abs().max().item() / qmax)
        self.a_scale.fill_(x.abs().max().item() / qmax)

    def forward(self, x):
        xq = fake_quant(x, self.a_scale, self.bits)
        wq = fake_quant(self.weight, self.w_scale, self.bits)
        return F.linear(xq, wq, self.bias)


class QMLP(nn.Module):
    def __init__(self, d_in, d_hidden, n_classes, bits):
        super().__init__()
        self.fc1 = QuantLinear(d_in, d_hidden, bits)
        self.fc2 = QuantLinear(d_hidden, n_classes, bits)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))

    @torch.no_grad()
    def calibrate(self, x):
        self.fc1.calibrate(x)
        self.fc2.calibrate(F.relu(self.fc1(x)))


def make_data(n, d, n_classes, seed=0):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(n_classes, d, generator=g) * 2
    y = torch.randint(0, n_classes, (n,), generator=g)
    x = centers[y] + torch.randn(n, d, generator=g)
    return TensorDataset(x, y)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bits", type=int, default=4)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    train_ds = make_data(512, 16, 4)
    loader = DataLoader(train_ds, batch_size=64, shuffle=True)
    model = QMLP(16, 64, 4, args.bits).to(device)

    calib_x, _ = next(iter(loader))
    model.calibrate(calib_x.to(device))

    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        total, correct, running = 0, 0, 0.0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * x.size(0)
            correct += (logits.argmax(1) == y).sum().item()
            total += x.size(0)
        print(f"epoch {epoch}: loss {running / total:.4f} acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
