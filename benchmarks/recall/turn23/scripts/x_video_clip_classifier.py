"""Action recognition on short clips: uniform temporal sampling of T frames
from each video, a (2+1)D conv backbone, clip-level cross-entropy.

Ported from a notebook; the first cell peeked at one batch to check shapes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

NUM_CLASSES = 4
FRAMES_PER_CLIP = 8


class RandomVideos(Dataset):
    """Videos of varying length (C, T_video, H, W) with a class label."""

    def __init__(self, n=24, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.videos = [torch.rand(3, int(torch.randint(12, 30, (1,), generator=g)), 32, 32, generator=g)
                       for _ in range(n)]
        self.labels = torch.randint(0, NUM_CLASSES, (n,), generator=g)

    def __len__(self):
        return len(self.videos)

    def __getitem__(self, i):
        video = self.videos[i]
        t = video.shape[1]
        idx = torch.linspace(0, t - 1, FRAMES_PER_CLIP).round().long()
        return video[:, idx], self.labels[i]


class R2Plus1D(nn.Module):
    def __init__(self, n_classes=NUM_CLASSES, width=16):
        super().__init__()
        self.spatial = nn.Conv3d(3, width, (1, 3, 3), padding=(0, 1, 1))
        self.temporal = nn.Conv3d(width, width, (3, 1, 1), padding=(1, 0, 0))
        self.bn = nn.BatchNorm3d(width)
        self.fc = nn.Linear(width, n_classes)

    def forward(self, clips):
        x = F.relu(self.bn(self.temporal(F.relu(self.spatial(clips)))))
        return self.fc(x.mean(dim=(2, 3, 4)))


def temporal_jitter(clips, max_shift=1):
    shift = int(torch.randint(-max_shift, max_shift + 1, (1,)))
    return torch.roll(clips, shifts=shift, dims=2)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
train_loader = DataLoader(RandomVideos(), batch_size=4, shuffle=True)
val_loader = DataLoader(RandomVideos(n=8, seed=1), batch_size=4)

clips, labels = next(iter(train_loader))
clips = clips.to(device)  # expect: DEV003
print("clip batch", tuple(clips.shape), clips.device)

model = R2Plus1D().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(2):
    model.train()
    for clips, labels in train_loader:
        clips = temporal_jitter(clips)
        logits = model(clips)  # also: DEV002
        loss = F.cross_entropy(logits, labels.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    model.eval()
    correct = total = 0
    with torch.no_grad():
        for clips, labels in val_loader:
            clips, labels = clips.to(device), labels.to(device)
            correct += (model(clips).argmax(1) == labels).sum().item()
            total += labels.numel()
    print(f"epoch {epoch} loss {loss.item():.3f} val acc {correct / total:.2f}")
