"""Speech-command classifier trained with nn.DataParallel: the wrapper scatters the inputs to the
GPUs, so the script stopped moving the batch at all.

Thread: https://github.com/sooftware/kospeech/issues/10 (DataParallel model: the loss gets tensors on
different devices).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Conv1d(40, 64, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(64, 12))
    if torch.cuda.device_count() > 1:
        net = nn.DataParallel(net)
    model = net.to(device)
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    ds = TensorDataset(torch.randn(96, 40, 50), torch.randint(0, 12, (96,)))
    for feats, labels in DataLoader(ds, batch_size=32, shuffle=True):
        logits = model(feats)  # expect: DEV002
        loss = criterion(logits, labels)  # expect: DEV004
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
