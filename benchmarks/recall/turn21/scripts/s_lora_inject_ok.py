"""LoRA injected into an already-moved model: the adapter weights are created on the
device and dtype of the layer they wrap, so nothing is left on the CPU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLPMixerish(nn.Module):
    def __init__(self, d=32, hidden=64, n_cls=4):
        super().__init__()
        self.inp = nn.Linear(16, d)
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)
        self.head = nn.Linear(d, n_cls)

    def forward(self, x):
        h = F.gelu(self.inp(x))
        h = h + self.fc2(F.gelu(self.fc1(h)))
        return self.head(h.mean(1))


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=16, dropout=0.0):
        super().__init__()
        self.base = base
        w = base.weight
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features, device=w.device, dtype=w.dtype) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, device=w.device, dtype=w.dtype))
        self.scale = alpha / r
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.base(x) + self.drop(x) @ self.lora_A.T @ self.lora_B.T * self.scale

    @torch.no_grad()
    def merge(self):
        self.base.weight += (self.lora_B @ self.lora_A) * self.scale
        return self.base


def add_lora(model, names=("fc1", "fc2"), r=4):
    for name in names:
        setattr(model, name, LoRALinear(getattr(model, name), r=r))


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MLPMixerish().to(device)
    model.requires_grad_(False)
    add_lora(model)
    params = [p for n, p in model.named_parameters() if "lora_" in n]
    for p in params:
        p.requires_grad_(True)
    opt = torch.optim.Adam(params, lr=5e-3)

    x_all = torch.randn(32, 8, 16)
    y_all = torch.randint(0, 4, (32,))
    for epoch in range(3):
        perm = torch.randperm(32)
        for i in range(0, 32, 8):
            idx = perm[i:i + 8]
            x, y = x_all[idx].to(device), y_all[idx].to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    model.fc1 = model.fc1.merge()
    model.fc2 = model.fc2.merge()
    with torch.no_grad():
        print("merged logits", model(x_all[:2].to(device)).shape)


if __name__ == "__main__":
    main()
