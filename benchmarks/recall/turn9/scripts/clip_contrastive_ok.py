"""Look-alike of simclr_ntxent_arange_labels.py: CLIP-style symmetric loss whose targets are made with
device=logits.device, a learnable temperature registered as a parameter, and captions (strings) that
stay in Python.

Thread: https://github.com/asahi417/lmppl/pull/13 (add to(self.device) in label to avoid tensors on
different devices when computing the loss).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.img = nn.Linear(64, 32)
        self.txt = nn.EmbeddingBag(500, 32)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))

    def forward(self, images, token_ids):
        a = F.normalize(self.img(images), dim=-1)
        b = F.normalize(self.txt(token_ids), dim=-1)
        return self.logit_scale.exp() * a @ b.t()


def clip_loss(logits):
    targets = torch.arange(logits.size(0), device=logits.device)
    return (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets)) / 2


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TwoTower().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(3):
        captions = [f"photo {i}" for i in range(16)]
        images = torch.randn(16, 64).to(device)
        tokens = torch.randint(0, 500, (16, 8)).to(device)
        loss = clip_loss(model(images, tokens))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item(), captions[0])


if __name__ == "__main__":
    main()
