"""Supervised contrastive (SupCon) training with in-batch positives and negatives.

Written from gritlm "question about emb loss" (in-batch targets built with
device=scores.device), info-nce-pytorch "Questions about codes for negative key is None" and
transformers "Update clip loss calculation" (labels moved to logits.device): here the two
augmented views are moved but the class labels that define the positives are not, so the
label-equality mask is built on the CPU and meets the GPU self-mask inside the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class TwoViewBlobs(Dataset):
    """Each item: two jittered views of a point drawn from one of K gaussian clusters."""

    def __init__(self, n=1024, k=6, dim=20, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.centers = torch.randn(k, dim, generator=g) * 3
        self.labels = torch.randint(0, k, (n,), generator=g)
        self.points = self.centers[self.labels] + torch.randn(n, dim, generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        x = self.points[i]
        views = torch.stack([x + 0.3 * torch.randn_like(x), x * (0.8 + 0.4 * torch.rand(1))])
        return views, self.labels[i]


class SupConLoss(nn.Module):
    def __init__(self, temperature=0.1):
        super().__init__()
        self.temperature = temperature

    def forward(self, feats, labels):
        feats = F.normalize(feats, dim=-1)
        n = feats.size(0)
        logits = feats @ feats.t() / self.temperature
        self_mask = torch.eye(n, dtype=torch.bool, device=feats.device)
        logits = logits.masked_fill(self_mask, -1e9)
        pos = (labels[:, None] == labels[None, :]) & ~self_mask
        log_prob = logits - torch.logsumexp(logits, dim=1, keepdim=True)
        mean_pos = (log_prob * pos).sum(1) / pos.sum(1).clamp(min=1)
        return -mean_pos.mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 64))
    projector = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 32))
    model = nn.Sequential(encoder, projector).to(device)
    criterion = SupConLoss(temperature=0.1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loader = DataLoader(TwoViewBlobs(), batch_size=128, shuffle=True, drop_last=True)

    for epoch in range(5):
        running = 0.0
        for views, labels in loader:
            views = views.to(device, non_blocking=True)
            feats = model(views.flatten(0, 1))           # (2B, 32), views interleaved
            labels = labels.repeat_interleave(2)
            loss = criterion(feats, labels)  # expect: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} supcon {running / len(loader):.4f}")

    torch.save(encoder.state_dict(), "supcon_encoder.pt")


if __name__ == "__main__":
    main()
