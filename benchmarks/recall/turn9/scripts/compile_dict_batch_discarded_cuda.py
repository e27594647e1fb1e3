"""A torch.compile'd tabular classifier fed dict batches; the port to GPU calls .cuda() on the batch
fields without keeping the result.

Thread: https://github.com/kitzeslab/opensoundscape/pull/201 (Tensor.cuda() returns a copy, so X.cuda()
needs to be X = X.cuda(); unnecessary for models).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Rows(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return {"num": torch.randn(12), "cat": torch.randint(0, 30, (3,)), "label": torch.randint(0, 2, ()).float()}


class TabNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 4)
        self.mlp = nn.Sequential(nn.Linear(12 + 12, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, num, cat):
        return self.mlp(torch.cat([num, self.emb(cat).flatten(1)], 1)).squeeze(1)


def main():
    use_cuda = torch.cuda.is_available()
    model = TabNet()
    if use_cuda:
        model = model.cuda()
    model = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for batch in DataLoader(Rows(), batch_size=16):
        if use_cuda:
            batch["num"].cuda()  # expect: DEV005
            batch["cat"].cuda()  # expect: DEV005
            batch["label"] = batch["label"].cuda()
        logits = model(batch["num"], batch["cat"])  # also: DEV002
        loss = nn.functional.binary_cross_entropy_with_logits(logits, batch["label"])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
