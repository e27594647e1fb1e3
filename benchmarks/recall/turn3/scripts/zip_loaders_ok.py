"""Domain adaptation with two loaders zipped: both batches moved, the domain labels made on the device."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    source = DataLoader(TensorDataset(torch.randn(512, 32), torch.randint(0, 5, (512,))), batch_size=64, shuffle=True)
    target = DataLoader(TensorDataset(torch.randn(512, 32) + 0.5), batch_size=64, shuffle=True)
    features = nn.Sequential(nn.Linear(32, 64), nn.ReLU()).to(device)
    classifier = nn.Linear(64, 5).to(device)
    critic = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
    params = list(features.parameters()) + list(classifier.parameters()) + list(critic.parameters())
    opt = torch.optim.Adam(params, lr=1e-3)
    for epoch in range(3):
        for (xs, ys), (xt,) in zip(source, target):
            xs, ys, xt = xs.to(device), ys.to(device), xt.to(device)
            fs, ft = features(xs), features(xt)
            cls_loss = F.cross_entropy(classifier(fs), ys)
            dom_logits = critic(torch.cat([fs, ft])).squeeze(-1)
            dom_labels = torch.cat([torch.ones(len(xs), device=device), torch.zeros(len(xt), device=device)])
            loss = cls_loss - 0.1 * F.binary_cross_entropy_with_logits(dom_logits, dom_labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, cls_loss.item())


if __name__ == "__main__":
    main()
