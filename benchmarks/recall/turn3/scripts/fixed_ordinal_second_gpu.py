"""Inference server worker pinned to the second GPU, "so that training can keep the first one"."""
import torch
import torch.nn as nn

DEVICE = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 1))

    def forward(self, emb):
        return torch.sigmoid(self.net(emb)).squeeze(-1)


model = Scorer().to(DEVICE).eval()


def score(embeddings):
    with torch.no_grad():
        return model(torch.as_tensor(embeddings, dtype=torch.float32, device=DEVICE)).tolist()


if __name__ == "__main__":
    print(score(torch.randn(4, 512)))
