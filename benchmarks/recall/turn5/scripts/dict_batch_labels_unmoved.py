"""Review-rating regression with a dict-batched DataLoader: a custom Dataset returns token ids,
an attention mask and a rating; the model is a small transformer encoder."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Reviews(Dataset):
    def __init__(self, n=3000, t=32, vocab=3000):
        g = torch.Generator().manual_seed(0)
        self.ids = torch.randint(1, vocab, (n, t), generator=g)
        self.rating = (self.ids[:, :4].float().mean(1) / vocab * 5).clamp(1, 5)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones_like(self.ids[i]), "rating": self.rating[i]}


class Regressor(nn.Module):
    def __init__(self, vocab=3000, d=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 128, batch_first=True), 2)
        self.head = nn.Linear(d, 1)

    def forward(self, input_ids, attention_mask):
        h = self.enc(self.emb(input_ids), src_key_padding_mask=attention_mask == 0)
        return self.head(h[:, 0]).squeeze(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(Reviews(), batch_size=64, shuffle=True)
    model = Regressor().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for epoch in range(args.epochs):
        for batch in loader:
            pred = model(batch["input_ids"].to(device), batch["attention_mask"].to(device))
            loss = F.huber_loss(pred, batch["rating"])  # expect: DEV004
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
