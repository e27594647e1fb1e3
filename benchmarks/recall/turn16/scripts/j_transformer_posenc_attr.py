"""Transformer encoder for sensor-sequence classification (HAR-style, synthetic data)."""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=500):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(1, max_len, d_model)
        pe[0, :, 0::2] = torch.sin(position * div_term)
        pe[0, :, 1::2] = torch.cos(position * div_term)
        # fixed table, not trained -> keep it out of the state_dict
        self.pe = pe  # expect: DEV010

    def forward(self, x):
        # x: (batch, seq, d_model)
        x = x + self.pe[:, : x.size(1)]
        return self.dropout(x)


class SensorTransformer(nn.Module):
    def __init__(self, n_channels=6, d_model=32, n_heads=4, n_layers=2, n_classes=5):
        super().__init__()
        self.input_proj = nn.Linear(n_channels, d_model)
        self.pos_enc = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.cls = nn.Linear(d_model, n_classes)

    def forward(self, x):
        h = self.pos_enc(self.input_proj(x))
        h = self.encoder(h)
        return self.cls(h.mean(dim=1))


class SyntheticHAR(Dataset):
    def __init__(self, n=320, seq_len=50, n_classes=5, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, n_classes, (n,), generator=g)
        t = torch.linspace(0, 4 * math.pi, seq_len)
        freq = (self.y.float() + 1).view(-1, 1, 1)
        self.x = torch.sin(freq * t.view(1, -1, 1)) + 0.3 * torch.randn(n, seq_len, 6, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def run():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SensorTransformer().to(device)
    loader = DataLoader(SyntheticHAR(), batch_size=32, shuffle=True)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.05)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(3):
        model.train()
        correct = total = 0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1) == y).sum().item()
            total += y.size(0)
        print(f"epoch {epoch}: loss={loss.item():.3f} acc={correct / total:.3f}")


if __name__ == "__main__":
    run()
