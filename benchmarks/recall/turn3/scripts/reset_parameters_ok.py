"""Re-initialising layers in place with reset_parameters() after the model was moved: parameters stay where they are."""
import torch
import torch.nn as nn


class Probe(nn.Module):
    def __init__(self, dim=64, n_classes=10):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(32, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.head = nn.Linear(dim, n_classes)
        self.register_buffer("temperature", torch.ones(1))

    def reset_head(self):
        self.head.reset_parameters()
        with torch.no_grad():
            self.temperature.fill_(1.0)

    def forward(self, x):
        with torch.no_grad():
            z = self.encoder(x)
        return self.head(z) / self.temperature


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Probe().to(device)
    x = torch.randn(256, 32, device=device)
    y = torch.randint(0, 10, (256,), device=device)
    for trial in range(3):
        model.reset_head()
        for m in model.encoder:
            if isinstance(m, nn.Linear) and trial > 0:
                m.reset_parameters()
        opt = torch.optim.SGD(model.head.parameters(), lr=0.1)
        for _ in range(50):
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(trial, loss.item())
