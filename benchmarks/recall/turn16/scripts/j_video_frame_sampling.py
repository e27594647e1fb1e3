"""Tiny 3D-CNN on variable-length videos: each long video is uniformly subsampled to a fixed
number of frames inside the model, a sinusoidal temporal code is added as a buffer."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def sinusoid_table(n, d):
    pos = torch.arange(n, dtype=torch.float32)[:, None]
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    tab = torch.zeros(n, d)
    tab[:, 0::2] = torch.sin(pos * div)
    tab[:, 1::2] = torch.cos(pos * div)
    return tab


class FlickerVideos(Dataset):
    """Label = whether the brightness flickers (1) or ramps smoothly (0)."""

    def __init__(self, n, length=40, size=16, seed=0):
        self.rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n):
            y = int(self.rng.integers(0, 2))
            t = np.arange(length)
            level = (t % 2) * 0.8 if y else t / length
            vid = level[None, :, None, None] + 0.1 * self.rng.normal(size=(1, length, size, size))
            self.items.append((vid.astype(np.float32), y))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        v, y = self.items[i]
        return torch.from_numpy(v), y


class C3DTiny(nn.Module):
    def __init__(self, n_frames=16, width=16, n_classes=2):
        super().__init__()
        self.n_frames = n_frames
        self.register_buffer("t_code", sinusoid_table(n_frames, width))
        self.stem = nn.Conv3d(1, width, kernel_size=(3, 3, 3), padding=1)
        self.block = nn.Conv3d(width, width, kernel_size=(3, 3, 3), padding=1)
        self.fc = nn.Linear(width, n_classes)

    def forward(self, video):
        # video: (B, 1, T, H, W) with arbitrary T; sample n_frames uniformly in time
        T = video.shape[2]
        idx = torch.linspace(0, T - 1, self.n_frames).round().long()
        x = video[:, :, idx]
        x = F.relu(self.stem(x))
        x = F.relu(self.block(x))
        x = x.mean(dim=(3, 4))                      # (B, C, T')
        x = x + self.t_code.T[None]
        return self.fc(x.mean(-1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_dl = DataLoader(FlickerVideos(96, seed=0), batch_size=16, shuffle=True)
    test_dl = DataLoader(FlickerVideos(48, length=56, seed=1), batch_size=16)

    model = C3DTiny().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(3):
        model.train()
        for video, label in train_dl:
            video, label = video.to(device), label.to(device)
            loss = F.cross_entropy(model(video), label)
            opt.zero_grad()
            loss.backward()
            opt.step()

        model.eval()
        preds, gts = [], []
        with torch.no_grad():
            for video, label in test_dl:
                preds.append(model(video.to(device)).argmax(1).cpu())
                gts.append(label)
        preds, gts = torch.cat(preds).numpy(), torch.cat(gts).numpy()
        print(f"epoch {epoch}: loss {loss.item():.3f} test acc {(preds == gts).mean():.3f}")


if __name__ == "__main__":
    main()
