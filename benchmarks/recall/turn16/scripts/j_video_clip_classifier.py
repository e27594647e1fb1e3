"""Action recognition on short clips: per-frame 2D CNN encoder + temporal transformer.

Input clips are (B, T, C, H, W). Synthetic 'moving blob' videos stand in for the dataset.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class MovingBlobs(Dataset):
    """Class 0: blob moves right, 1: moves left, 2: moves down, 3: static."""

    def __init__(self, n=256, frames=8, size=32, seed=0):
        self.n, self.frames, self.size = n, frames, size
        self.g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, 4, (n,), generator=self.g)
        self.starts = torch.randint(8, size - 8, (n, 2), generator=self.g)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        y = int(self.labels[i])
        r, c = self.starts[i].tolist()
        dr, dc = [(0, 1), (0, -1), (1, 0), (0, 0)][y]
        clip = torch.zeros(self.frames, 3, self.size, self.size)
        for t in range(self.frames):
            rr = min(max(r + dr * t, 2), self.size - 3)
            cc = min(max(c + dc * t, 2), self.size - 3)
            clip[t, :, rr - 2:rr + 3, cc - 2:cc + 3] = 1.0
        return clip + 0.05 * torch.randn_like(clip), y


class FrameEncoder(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.proj = nn.Linear(32, dim)

    def forward(self, x):
        return self.proj(self.conv(x).flatten(1))


class ClipTransformer(nn.Module):
    def __init__(self, n_classes=4, dim=64, max_frames=32):
        super().__init__()
        self.encoder = FrameEncoder(dim)
        self.time_embed = nn.Embedding(max_frames, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=128, batch_first=True)
        self.temporal = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, clips):
        B, T = clips.shape[:2]
        feats = self.encoder(clips.flatten(0, 1)).view(B, T, -1)
        t_idx = torch.arange(T)  # expect: DEV006
        feats = feats + self.time_embed(t_idx)[None]
        return self.head(self.temporal(feats).mean(1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(MovingBlobs(96, seed=0), batch_size=16, shuffle=True)
    val_loader = DataLoader(MovingBlobs(32, seed=1), batch_size=32)

    model = ClipTransformer().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)

    # quick shape / speed sanity check on one batch before training
    clips, labels = next(iter(train_loader))
    clips, labels = clips.to(device), labels.to(device)  # expect: DEV003
    with torch.no_grad():
        print("logits shape:", tuple(model(clips).shape))

    for epoch in range(2):
        model.train()
        for clips, labels in train_loader:
            logits = model(clips)  # also: DEV002
            loss = F.cross_entropy(logits, labels)  # also: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        correct = total = 0
        with torch.no_grad():
            for v_clips, v_labels in val_loader:
                v_clips, v_labels = v_clips.to(device), v_labels.to(device)
                correct += (model(v_clips).argmax(1) == v_labels).sum().item()
                total += v_labels.numel()
        print(f"epoch {epoch}: loss {loss.item():.3f} val acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
