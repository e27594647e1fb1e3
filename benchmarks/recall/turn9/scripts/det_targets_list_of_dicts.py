"""Detector fine-tuning with a torchvision-style interface: images as a list, targets as a list of
dicts with boxes and labels, the model returning a dict of losses in training mode.

Thread: https://github.com/pytorch/vision/issues/2219 and https://github.com/pytorch/pytorch/issues/61704
(Expected all tensors to be on the same device with detection targets).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class BoxSet(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        boxes = torch.tensor([[2.0, 2.0, 20.0, 20.0], [5.0, 8.0, 30.0, 28.0]])
        return torch.rand(3, 32, 32), {"boxes": boxes, "labels": torch.tensor([1, 2])}


def collate(batch):
    return tuple(zip(*batch))


class TinyDetector(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.cls = nn.Linear(8, n_cls)
        self.reg = nn.Linear(8, 4)

    def forward(self, images, targets):
        feats = self.backbone(torch.stack(images))
        loss_cls = sum(nn.functional.cross_entropy(self.cls(f).expand(len(t["labels"]), -1), t["labels"])
                       for f, t in zip(feats, targets))
        loss_box = sum(nn.functional.l1_loss(self.reg(f).expand_as(t["boxes"]), t["boxes"] / 32)
                       for f, t in zip(feats, targets))
        return {"loss_classifier": loss_cls, "loss_box_reg": loss_box}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyDetector().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for images, targets in DataLoader(BoxSet(), batch_size=4, collate_fn=collate):
        images = [img.to(device) for img in images]
        loss_dict = model(images, targets)  # expect: DEV002
        loss = sum(loss_dict.values())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
