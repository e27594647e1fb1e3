"""Look-alike of ts_lstm_forecast_eval_numpy.py and ts_gru_hidden_set_in_forward.py: targets moved
with the inputs, the hidden state made with device=x.device, predictions copied back with .cpu()
before NumPy and matplotlib.

Thread: https://github.com/xiaxin1998/DHCN/issues/14 (use Tensor.cpu() to copy the tensor to host
memory first).
"""
import matplotlib
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


class Forecaster(nn.Module):
    def __init__(self, hid=32):
        super().__init__()
        self.hid = hid
        self.cell = nn.GRUCell(1, hid)
        self.fc = nn.Linear(hid, 1)

    def forward(self, x):
        h = torch.zeros(x.size(0), self.hid, device=x.device)
        for t in range(x.size(1)):
            h = self.cell(x[:, t], h)
        return self.fc(h)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    series = 2 + np.sin(np.arange(300) / 8.0)
    x = torch.tensor(np.stack([series[i:i + 24] for i in range(276)])[..., None], dtype=torch.float32)
    y = torch.tensor(series[24:][:, None], dtype=torch.float32)
    model = Forecaster().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for xb, yb in DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True):
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(x.to(device)).squeeze(1).cpu().numpy()
    errors = [abs(a - b) for a, b in zip(pred.tolist(), y.squeeze(1).tolist())]
    plt.plot(pred)
    plt.plot(np.array(errors))
    plt.savefig("forecast.png")
    print(np.mean(errors))


if __name__ == "__main__":
    main()
