"""Five-fold cross-validation of a small regressor; a fresh model per fold, placed on the device
in the batch loop."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(250, 7)
    y = x @ torch.randn(7) + 0.1 * torch.randn(250)
    folds = torch.arange(250) % 5
    scores = []
    for k in range(5):
        model = nn.Sequential(nn.Linear(7, 16), nn.ReLU(), nn.Linear(16, 1))
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        tr = folds != k
        for step in range(0, int(tr.sum()), 25):
            model.to(device)  # expect: DEV007
            xb = x[tr][step:step + 25].to(device)
            yb = y[tr][step:step + 25].to(device)
            loss = F.mse_loss(model(xb).squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            scores.append(F.mse_loss(model(x[~tr].to(device)).squeeze(1), y[~tr].to(device)).item())
    print(sum(scores) / 5)


if __name__ == "__main__":
    main()
