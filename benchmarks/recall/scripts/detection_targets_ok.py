"""Keypoint-detection loop with list-of-dict targets, every tensor of every target moved."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class KeypointDataset(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, idx):
        return torch.rand(3, 24, 24), {"keypoints": torch.rand(5, 2), "visible": torch.ones(5)}


class KeypointNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(32, 10))

    def forward(self, images, targets=None):
        preds = self.net(torch.stack(images)).view(-1, 5, 2)
        if targets is None:
            return preds
        gt = torch.stack([t["keypoints"] for t in targets])
        vis = torch.stack([t["visible"] for t in targets]).unsqueeze(-1)
        return {"loss_keypoint": (F.mse_loss(preds, gt, reduction="none") * vis).mean()}


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = KeypointNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(KeypointDataset(), batch_size=4, collate_fn=lambda b: tuple(zip(*b)))

for epoch in range(2):
    for images, targets in loader:
        images = [img.to(device) for img in images]
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        loss = sum(model(images, targets).values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} keypoint loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    preds = model([img.to(device) for img in images]).cpu()
print("predicted keypoints", tuple(preds.shape))
