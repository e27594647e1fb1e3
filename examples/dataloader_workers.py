"""A Dataset that builds samples in __getitem__, loaded by two worker processes into pinned
memory, moved with non_blocking=True."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class NoisyLines(Dataset):
    def __len__(self):
        return 640

    def __getitem__(self, index):
        g = torch.Generator().manual_seed(index)
        x = torch.randn(6, generator=g)
        return x, x.sum(dim=0, keepdim=True) * 0.5


def main():
    torch.manual_seed(0)
    loader = DataLoader(NoisyLines(), batch_size=32, shuffle=True, num_workers=2,
                        pin_memory=torch.cuda.is_available())
    model = nn.Linear(6, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(2):
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"loss {loss.item():.6f}")


if __name__ == "__main__":
    main()
