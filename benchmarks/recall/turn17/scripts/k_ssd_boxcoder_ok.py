"""SSD-lite style single-shot detector on synthetic rectangles with a reusable BoxCoder.

Priors are a non-persistent buffer of the model; targets are dicts moved with the images.
"""
import math
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

IMG = 48
NUM_CLASSES = 3     # 0 = background


class BoxCoder:
    def __init__(self, weights=(10.0, 10.0, 5.0, 5.0)):
        self.weights = weights

    def _w(self, ref):
        return torch.as_tensor(self.weights, dtype=ref.dtype, device=ref.device)

    def encode(self, gt, priors):
        pw, ph = priors[:, 2] - priors[:, 0], priors[:, 3] - priors[:, 1]
        px, py = priors[:, 0] + 0.5 * pw, priors[:, 1] + 0.5 * ph
        gw, gh = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
        gx, gy = gt[:, 0] + 0.5 * gw, gt[:, 1] + 0.5 * gh
        d = torch.stack([(gx - px) / pw, (gy - py) / ph, torch.log(gw / pw), torch.log(gh / ph)], 1)
        return d * self._w(d)

    def decode(self, deltas, priors):
        d = deltas / self._w(deltas)
        pw, ph = priors[:, 2] - priors[:, 0], priors[:, 3] - priors[:, 1]
        px, py = priors[:, 0] + 0.5 * pw, priors[:, 1] + 0.5 * ph
        cx, cy = d[..., 0] * pw + px, d[..., 1] * ph + py
        w = torch.exp(d[..., 2].clamp(max=math.log(1000.0 / 16))) * pw
        h = torch.exp(d[..., 3].clamp(max=math.log(1000.0 / 16))) * ph
        return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], -1)


def iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])
    return inter / (area(a)[:, None] + area(b)[None] - inter)


def greedy_nms(boxes, scores, thr=0.45):
    order = scores.argsort(descending=True).tolist()
    keep = []
    while order:
        i = order.pop(0)
        keep.append(i)
        if order:
            rest = torch.tensor(order)
            ov = iou(boxes[i:i + 1], boxes[rest])[0].cpu()
            order = rest[ov < thr].tolist()
    return torch.tensor(keep, dtype=torch.long)


class SSDLite(nn.Module):
    def __init__(self, stride=8, scales=(10.0, 18.0)):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(64, 64, 3, 2, 1), nn.ReLU())
        A = len(scales)
        self.cls = nn.Conv2d(64, A * NUM_CLASSES, 3, padding=1)
        self.reg = nn.Conv2d(64, A * 4, 3, padding=1)
        n = IMG // stride
        c = (torch.arange(n, dtype=torch.float32) + 0.5) * stride
        cy, cx = torch.meshgrid(c, c, indexing="ij")
        pri = torch.stack([torch.stack([cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2], -1) for s in scales], 2)
        self.register_buffer("priors", pri.reshape(-1, 4), persistent=False)
        self.coder = BoxCoder()

    def forward(self, x):
        f = self.features(x)
        B = x.shape[0]
        return (self.cls(f).permute(0, 2, 3, 1).reshape(B, -1, NUM_CLASSES),
                self.reg(f).permute(0, 2, 3, 1).reshape(B, -1, 4))

    def loss(self, cls, reg, targets):
        total = 0.0
        for b, t in enumerate(targets):
            ov = iou(self.priors, t["boxes"])
            best, idx = ov.max(1)
            labels = torch.where(best >= 0.5, t["labels"][idx], torch.zeros_like(idx))
            pos = labels > 0
            ce = F.cross_entropy(cls[b], labels, reduction="none")
            # hard negative mining, 3:1
            neg_ce = ce.clone()
            neg_ce[pos] = 0
            n_neg = min(3 * int(pos.sum()), int((~pos).sum()))
            hard = neg_ce.topk(max(n_neg, 1)).indices
            total = total + (ce[pos].sum() + ce[hard].sum()) / max(int(pos.sum()), 1)
            if pos.any():
                tgt = self.coder.encode(t["boxes"][idx[pos]], self.priors[pos])
                total = total + F.smooth_l1_loss(reg[b][pos], tgt, reduction="sum") / int(pos.sum())
        return total / len(targets)

    @torch.no_grad()
    def detect(self, x, thr=0.4):
        cls, reg = self(x)
        probs = cls.softmax(-1)
        boxes = self.coder.decode(reg, self.priors)
        out = []
        for b in range(x.shape[0]):
            score, label = probs[b, :, 1:].max(-1)
            m = score > thr
            bx, sc, lb = boxes[b][m], score[m], label[m] + 1
            keep = greedy_nms(bx, sc) if sc.numel() else torch.zeros(0, dtype=torch.long)
            out.append({"boxes": bx[keep], "scores": sc[keep], "labels": lb[keep]})
        return out


def rects(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    data = []
    for _ in range(n):
        img = 0.1 * torch.rand(3, IMG, IMG, generator=g)
        w, h = torch.randint(8, 20, (2,), generator=g).tolist()
        x0, y0 = torch.randint(0, IMG - 20, (2,), generator=g).tolist()
        c = int(torch.randint(1, NUM_CLASSES, (1,), generator=g))
        img[c, y0:y0 + h, x0:x0 + w] = 1.0
        data.append((img, {"boxes": torch.tensor([[x0, y0, x0 + w, y0 + h]], dtype=torch.float32),
                           "labels": torch.tensor([c])}))
    return data


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = rects(96)
    loader = DataLoader(ds, batch_size=16, shuffle=True, collate_fn=lambda b: tuple(zip(*b)))
    model = SSDLite()
    if os.path.exists("ssdlite_init.pt"):
        model.load_state_dict(torch.load("ssdlite_init.pt", map_location="cpu"))
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(3):
        model.train()
        for imgs, targets in loader:
            imgs = torch.stack(imgs).to(device)
            targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
            cls, reg = model(imgs)
            loss = model.loss(cls, reg, targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")

    model.eval()
    dets = model.detect(torch.stack([ds[i][0] for i in range(4)]).to(device))
    for d in dets:
        arr = np.concatenate([d["boxes"].cpu().numpy(), d["scores"].cpu().numpy()[:, None]], 1)
        print(arr.round(1).tolist()[:2])


if __name__ == "__main__":
    main()
