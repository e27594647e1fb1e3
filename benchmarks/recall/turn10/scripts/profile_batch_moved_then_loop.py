"""Audio event classifier: before training, one real batch is moved to the device and pushed
through the model under the profiler to log the cost of a forward pass; then the epochs run over
the same loader and the same names.

Thread: https://github.com/pytorch/examples/issues/599 (Input type (torch.FloatTensor) and weight
type (torch.cuda.FloatTensor) should be the same).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile
from torch.utils.data import DataLoader, TensorDataset


def build_model(n_mels=64, classes=10):
    return nn.Sequential(
        nn.Conv1d(n_mels, 128, 3, padding=1), nn.BatchNorm1d(128), nn.ReLU(),
        nn.Conv1d(128, 128, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        nn.Flatten(), nn.Linear(128, classes),
    )


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = TensorDataset(torch.randn(640, 64, 100), torch.randint(0, 10, (640,)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    model = build_model().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    mels, labels = next(iter(loader))
    mels, labels = mels.to(device), labels.to(device)  # expect: DEV003
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with profile(activities=activities) as prof, torch.no_grad():
        model(mels)
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=5))
    for epoch in range(3):
        for mels, labels in loader:
            logits = model(mels)  # also: DEV002
            loss = F.cross_entropy(logits, labels)  # also: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
