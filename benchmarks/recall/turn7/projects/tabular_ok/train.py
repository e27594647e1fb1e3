"""Train the credit-risk MLP and print a calibration table."""
import torch
import torch.nn.functional as F

from config import Settings
from data import make_loader
from model import RiskMLP
from report import calibration


def main():
    s = Settings()
    model = RiskMLP(s.n_features, s.hidden).to(s.device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(s.epochs):
        for x, y in make_loader(256, s):
            loss = F.binary_cross_entropy_with_logits(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    scores, labels = [], []
    with torch.no_grad():
        for x, y in make_loader(64, s, shuffle=False):
            scores.append(torch.sigmoid(model(x)).cpu())
            labels.append(y.cpu())
    print(calibration(torch.cat(scores).numpy(), torch.cat(labels).numpy()))


if __name__ == "__main__":
    main()
