"""Hand-rolled LoRA: the attention projections of a small transformer are wrapped with low-rank
adapters once the base model is on the device."""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(r, base.in_features) * 0.01)
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.A.t() @ self.B.t()) * self.scale


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.ff = nn.Linear(d, d)

    def forward(self, x):
        att = torch.softmax(self.q(x) @ x.transpose(1, 2), -1)
        return x + self.ff(att @ self.v(x))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(Block(32), Block(32)).to(device)
    model.requires_grad_(False)
    for block in model:
        block.q = LoRALinear(block.q)  # expect: DEV015
        block.v = LoRALinear(block.v)  # also: DEV015
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-3)
    x = torch.randn(4, 6, 32, device=device)
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
