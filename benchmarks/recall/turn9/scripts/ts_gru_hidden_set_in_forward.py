"""Traffic forecasting on sliding windows with a recurrent cell that creates its own state when none
is passed.

Thread: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/18 (initial hidden H
made with torch.zeros in _set_hidden_state is never moved to the GPU).
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_windows(series, width, horizon):
    xs = [series[i:i + width] for i in range(len(series) - width - horizon)]
    ys = [series[i + width:i + width + horizon] for i in range(len(series) - width - horizon)]
    return np.stack(xs).astype(np.float32), np.stack(ys).astype(np.float32)


class RecurrentForecaster(nn.Module):
    def __init__(self, n_feat, hid, horizon):
        super().__init__()
        self.hid = hid
        self.cell = nn.GRUCell(n_feat, hid)
        self.head = nn.Linear(hid, horizon * n_feat)
        self.horizon, self.n_feat = horizon, n_feat

    def _set_hidden_state(self, x, h):
        if h is None:
            h = torch.zeros(x.shape[0], self.hid)  # expect: DEV006
        return h

    def forward(self, x, h=None):
        h = self._set_hidden_state(x, h)
        for t in range(x.size(1)):
            h = self.cell(x[:, t], h)
        return self.head(h).view(-1, self.horizon, self.n_feat)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    series = np.sin(np.linspace(0, 60, 600))[:, None].repeat(3, 1)
    x, y = make_windows(series, 24, 4)
    loader = DataLoader(TensorDataset(torch.from_numpy(x), torch.from_numpy(y)), batch_size=32, shuffle=True)
    model = RecurrentForecaster(3, 32, 4).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
