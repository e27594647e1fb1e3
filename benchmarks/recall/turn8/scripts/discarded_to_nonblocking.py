"""Audio-tagging training with pinned memory: the loop issues non-blocking copies of the batch.

Thread: https://github.com/Zzh-tju/ultralytics-YOLOv3-Cluster-NMS/issues/6 ("another method is add
.to(device), but it's not work"); https://github.com/mtkresearch/FishLeg/issues/16 (mask.to(...) with
its result dropped).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tagger = nn.Sequential(nn.Conv1d(1, 8, 9, stride=4), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(),
                           nn.Linear(8, 5)).to(device)
    opt = torch.optim.Adam(tagger.parameters(), lr=1e-3)
    dl = DataLoader(TensorDataset(torch.randn(96, 1, 800), torch.randint(0, 2, (96, 5)).float()),
                    batch_size=16, pin_memory=torch.cuda.is_available())
    for wave, tags in dl:
        wave.to(device, non_blocking=True)  # expect: DEV005
        tags = tags.to(device, non_blocking=True)
        loss = nn.functional.binary_cross_entropy_with_logits(tagger(wave), tags)  # also: DEV002
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
