"""Character-level CNN text classifier with a classic argparse front end: --no-cuda selects the
CPU, and the device is chosen from the flag and torch.cuda.is_available().

Thread: https://github.com/fyu/drn/issues/6 (--no-cuda is unused: args.cuda is set up properly,
but everything is cast to cuda regardless of the option).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CharCNN(nn.Module):
    def __init__(self, vocab=70, classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, 32)
        self.convs = nn.ModuleList(nn.Conv1d(32, 64, k) for k in (3, 5, 7))
        self.fc = nn.Linear(3 * 64, classes)

    def forward(self, chars):
        h = self.emb(chars).transpose(1, 2)
        return self.fc(torch.cat([F.relu(c(h)).amax(-1) for c in self.convs], dim=1))


def build_model(classes):
    model = CharCNN(classes=classes)
    return model.cuda()  # expect: DEV001


def main():
    parser = argparse.ArgumentParser(description="char-CNN news classifier")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--no-cuda", action="store_true", default=False, help="disables CUDA training")
    args = parser.parse_args()
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    model = build_model(classes=4)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    data = TensorDataset(torch.randint(0, 70, (1024, 120)), torch.randint(0, 4, (1024,)))
    kwargs = {"num_workers": 1, "pin_memory": True} if use_cuda else {}
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True, **kwargs)
    for epoch in range(1, args.epochs + 1):
        for chars, labels in loader:
            chars, labels = chars.to(device), labels.to(device)
            loss = F.cross_entropy(model(chars), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
