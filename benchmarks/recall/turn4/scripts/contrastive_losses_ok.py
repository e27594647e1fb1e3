"""A supervised contrastive loss and a weighted Dice loss whose constants follow the inputs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SupConLoss(nn.Module):
    def __init__(self, temperature=0.1):
        super().__init__()
        self.temperature = temperature

    def forward(self, features, labels):
        features = F.normalize(features, dim=-1)
        n = features.size(0)
        sim = features @ features.T / self.temperature
        same = labels.unsqueeze(0).eq(labels.unsqueeze(1)).float()
        not_self = 1.0 - torch.eye(n, device=features.device)
        pos = same * not_self
        log_prob = sim - torch.logsumexp(sim.masked_fill(not_self == 0, float("-inf")), dim=1, keepdim=True)
        return -((pos * log_prob).sum(1) / pos.sum(1).clamp(min=1)).mean()


class WeightedDiceLoss(nn.Module):
    def __init__(self, class_weights, eps=1e-6):
        super().__init__()
        self.register_buffer("class_weights", torch.as_tensor(class_weights, dtype=torch.float32))
        self.eps = eps

    def forward(self, logits, target):
        probs = logits.softmax(1)
        onehot = F.one_hot(target, probs.size(1)).permute(0, 3, 1, 2).float()
        inter = (probs * onehot).sum((0, 2, 3))
        union = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
        return (self.class_weights * (1 - (2 * inter + self.eps) / (union + self.eps))).mean()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    emb = nn.Linear(20, 16).to(device)
    print(SupConLoss()(emb(torch.randn(8, 20, device=device)), torch.randint(0, 3, (8,), device=device)).item())
    seg = nn.Conv2d(1, 3, 1).to(device)
    dice = WeightedDiceLoss([0.2, 1.0, 2.0]).to(device)
    print(dice(seg(torch.randn(2, 1, 8, 8, device=device)), torch.randint(0, 3, (2, 8, 8), device=device)).item())
