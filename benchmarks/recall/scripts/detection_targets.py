"""Object-detection training loop with torchvision-style inputs: a list of images and a list of target dicts."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class BoxDataset(Dataset):
    def __len__(self):
        return 12

    def __getitem__(self, idx):
        n = 1 + idx % 3
        boxes = torch.rand(n, 4) * 0.5
        boxes[:, 2:] += boxes[:, :2]
        return torch.rand(3, 32, 32), {"boxes": boxes, "labels": torch.randint(1, 4, (n,))}


def collate_fn(batch):
    return tuple(zip(*batch))


class TinyDetector(nn.Module):
    """Predicts one box and class per image; the loss is computed against the first target box."""

    def __init__(self, num_classes=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.box_head = nn.Linear(8, 4)
        self.cls_head = nn.Linear(8, num_classes)

    def forward(self, images, targets):
        feats = self.backbone(torch.stack(images))
        gt_boxes = torch.stack([t["boxes"][0] for t in targets])
        gt_labels = torch.stack([t["labels"][0] for t in targets])
        return {"loss_box_reg": F.smooth_l1_loss(self.box_head(feats), gt_boxes),
                "loss_classifier": F.cross_entropy(self.cls_head(feats), gt_labels)}


device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
model = TinyDetector().to(device)
params = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.SGD(params, lr=0.005, momentum=0.9, weight_decay=5e-4)
data_loader = DataLoader(BoxDataset(), batch_size=4, shuffle=True, collate_fn=collate_fn)

for epoch in range(2):
    model.train()
    for images, targets in data_loader:
        images = list(image.to(device) for image in images)
        loss_dict = model(images, targets)  # expect: DEV002
        losses = sum(loss for loss in loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
    print(f"epoch {epoch} " + " ".join(f"{k}={v.item():.3f}" for k, v in loss_dict.items()))
