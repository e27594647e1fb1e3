"""DeepLab-ish segmentation trainer with an optional auxiliary head on the
intermediate features (enabled from the config).
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class SegConfig:
    num_classes: int = 5
    aux_loss: bool = True
    aux_weight: float = 0.4
    lr: float = 0.01
    epochs: int = 2
    batch_size: int = 4
    ignore_index: int = 255


class ASPPLite(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.branches = nn.ModuleList(
            nn.Conv2d(cin, cout, 3, padding=d, dilation=d) for d in (1, 2, 4)
        )
        self.project = nn.Conv2d(3 * cout, cout, 1)

    def forward(self, x):
        return F.relu(self.project(torch.cat([F.relu(b(x)) for b in self.branches], 1)))


class TinyDeepLab(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.layer = nn.Sequential(nn.Conv2d(32, 32, 3, 1, 1), nn.ReLU())
        self.aspp = ASPPLite(32, 32)
        self.classifier = nn.Conv2d(32, num_classes, 1)
        self.aux_head = None

    def forward(self, x):
        size = x.shape[-2:]
        mid = self.layer(self.stem(x))
        out = {"out": F.interpolate(self.classifier(self.aspp(mid)), size=size, mode="bilinear", align_corners=False)}
        if self.aux_head is not None:
            out["aux"] = F.interpolate(self.aux_head(mid), size=size, mode="bilinear", align_corners=False)
        return out


class SegTrainer:
    def __init__(self, cfg: SegConfig):
        self.cfg = cfg
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = TinyDeepLab(cfg.num_classes).to(self.device)
        if cfg.aux_loss:
            self.model.aux_head = nn.Conv2d(32, cfg.num_classes, 1)  # expect: DEV015
        self.criterion = nn.CrossEntropyLoss(ignore_index=cfg.ignore_index)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg.lr, momentum=0.9)

    def fit(self, train_loader):
        # check one batch before starting
        images, masks = next(iter(train_loader))
        images, masks = images.to(self.device), masks.to(self.device)  # expect: DEV003
        print("batch", tuple(images.shape), "labels", sorted(masks.unique().tolist()))

        for epoch in range(self.cfg.epochs):
            self.model.train()
            running = 0.0
            for images, masks in train_loader:
                out = self.model(images)  # also: DEV002
                loss = self.criterion(out["out"], masks)  # also: DEV004
                if "aux" in out:
                    loss = loss + self.cfg.aux_weight * self.criterion(out["aux"], masks)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                running += loss.item()
            print(f"epoch {epoch}: loss {running / len(train_loader):.4f}")


def make_loader(cfg, n=16, size=48):
    g = torch.Generator().manual_seed(0)
    images = torch.rand(n, 3, size, size, generator=g)
    masks = (images[:, 0] * cfg.num_classes).long().clamp(max=cfg.num_classes - 1)
    masks[:, :, :3] = cfg.ignore_index
    return DataLoader(TensorDataset(images, masks), batch_size=cfg.batch_size, shuffle=True)


if __name__ == "__main__":
    cfg = SegConfig()
    trainer = SegTrainer(cfg)
    trainer.fit(make_loader(cfg))
