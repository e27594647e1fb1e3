"""Correct look-alike: loss modules with their own tensors done right. The OHEM loss registers its
class weights as a buffer and is moved with .to(device); the Poly-1 loss's buffer moves because
the loss is a submodule of the model wrapper; the BCE pos_weight is computed on the CPU and the
loss module built from it is moved.

Thread: https://github.com/sacdallago/biotrainer/pull/62 (fixing loss device handling: the loss
module is moved to the device).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class OHEMCrossEntropy(nn.Module):
    def __init__(self, class_weights, keep=0.25):
        super().__init__()
        self.register_buffer("class_weights", torch.tensor(class_weights, dtype=torch.float32))
        self.keep = keep

    def forward(self, logits, target):
        per_sample = F.cross_entropy(logits, target, weight=self.class_weights, reduction="none")
        return per_sample.topk(max(1, int(self.keep * per_sample.numel()))).values.mean()


class PolyLoss(nn.Module):
    def __init__(self, epsilons):
        super().__init__()
        self.register_buffer("eps", torch.tensor(epsilons, dtype=torch.float32))

    def forward(self, logits, target):
        pt = logits.softmax(-1).gather(1, target[:, None]).squeeze(1)
        return (F.cross_entropy(logits, target, reduction="none") + self.eps[target] * (1 - pt)).mean()


class WithLoss(nn.Module):
    def __init__(self, net, loss):
        super().__init__()
        self.net, self.loss = net, loss

    def forward(self, x, y):
        return self.loss(self.net(x), y)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x_all, y_all = torch.randn(512, 16), torch.randint(0, 3, (512,))
    tags = (torch.rand(512, 3) < 0.2).float()
    pos_weight = (len(tags) - tags.sum(0)) / tags.sum(0).clamp(min=1)
    backbone = nn.Sequential(nn.Linear(16, 64), nn.ReLU()).to(device)
    cls_head, tag_head = nn.Linear(64, 3).to(device), nn.Linear(64, 3).to(device)
    ohem = OHEMCrossEntropy([1.0, 2.0, 3.0]).to(device)
    poly = WithLoss(nn.Linear(64, 3), PolyLoss([1.0, 1.5, 2.0])).to(device)
    bce = nn.BCEWithLogitsLoss(pos_weight=pos_weight).to(device)
    params = [*backbone.parameters(), *cls_head.parameters(), *tag_head.parameters(), *poly.parameters()]
    opt = torch.optim.Adam(params, lr=1e-3)
    for x, y, t in DataLoader(TensorDataset(x_all, y_all, tags), batch_size=64, shuffle=True):
        x, y, t = x.to(device), y.to(device), t.to(device)
        h = backbone(x)
        loss = ohem(cls_head(h), y) + poly(h, y) + bce(tag_head(h), t)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
