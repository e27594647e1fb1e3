"""Training loop that logs a histogram of embeddings and sample predictions to Weights & Biases."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import wandb
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(100, 64), nn.ReLU(), nn.Linear(64, 16))
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        z = self.body(x)
        return z, self.head(z)


def main():
    run = wandb.init(project="embeddings-demo", config={"lr": 1e-3, "epochs": 5})
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Encoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=run.config.lr)
    loader = DataLoader(TensorDataset(torch.randn(1000, 100), torch.randint(0, 3, (1000,))), batch_size=100, shuffle=True)
    for epoch in range(run.config.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            z, logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            wandb.log({"loss": loss.item()})
        wandb.log({
            "epoch": epoch,
            "embedding_norms": wandb.Histogram(z.norm(dim=-1).detach().numpy()),  # expect: DEV011
            "acc": (logits.argmax(-1) == y).float().mean().item(),
        })
    run.finish()


if __name__ == "__main__":
    main()
