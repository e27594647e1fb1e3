"""Speaker-verification scoring with an x-vector style TDNN: embeddings for every validation
utterance, cosine scores between all pairs and the equal error rate. A sanity check pushes one
batch through the model before the loop.

Thread: https://github.com/pytorch/tutorials/pull/1890 (Ensure test data on device before running
model: "If device is not cpu, model(x) fails with RuntimeError: Expected all tensors to be on the
same device").
"""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class TDNN(nn.Module):
    def __init__(self, n_mels=30, d=64):
        super().__init__()
        self.frames = nn.Sequential(nn.Conv1d(n_mels, d, 5, dilation=1), nn.ReLU(),
                                    nn.Conv1d(d, d, 3, dilation=2), nn.ReLU(),
                                    nn.Conv1d(d, d, 3, dilation=3), nn.ReLU())
        self.segment = nn.Linear(2 * d, 32)

    def forward(self, feats):
        h = self.frames(feats)
        return self.segment(torch.cat([h.mean(-1), h.std(-1)], dim=1))


def equal_error_rate(scores, same):
    best = 1.0
    for thr in torch.linspace(-1, 1, 201):
        far = ((scores >= thr) & ~same).sum() / (~same).sum()
        frr = ((scores < thr) & same).sum() / same.sum()
        best = min(best, max(far.item(), frr.item()))
    return best


def main(weights="xvector.pt"):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TDNN().to(device).eval()
    if os.path.exists(weights):
        model.load_state_dict(torch.load(weights, map_location=device))
    speakers = torch.arange(20).repeat_interleave(6)
    feats = torch.randn(120, 30, 200) + speakers.view(-1, 1, 1) * 0.05
    loader = DataLoader(TensorDataset(feats, speakers), batch_size=16)

    batch, spk = next(iter(loader))
    batch = batch.to(device)  # expect: DEV003
    with torch.no_grad():
        print("sanity: embedding shape", tuple(model(batch).shape))
        embs, labels = [], []
        for batch, spk in loader:
            embs.append(F.normalize(model(batch), dim=1).cpu())  # also: DEV002
            labels.append(spk)
    embs, labels = torch.cat(embs), torch.cat(labels)
    scores = embs @ embs.t()
    same = labels[:, None] == labels[None, :]
    off_diag = ~torch.eye(len(labels), dtype=torch.bool)
    print(f"EER: {equal_error_rate(scores[off_diag], same[off_diag]):.3f}")


if __name__ == "__main__":
    main()
