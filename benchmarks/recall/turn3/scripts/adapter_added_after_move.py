"""Parameter-efficient fine-tuning by hand: bottleneck adapters added to a frozen encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Adapter(nn.Module):
    def __init__(self, dim, bottleneck=16):
        super().__init__()
        self.down = nn.Linear(dim, bottleneck)
        self.up = nn.Linear(bottleneck, dim)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))


class Encoder(nn.Module):
    def __init__(self, vocab=8000, dim=128, layers=4, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(nn.TransformerEncoderLayer(dim, 4, 4 * dim, batch_first=True) for _ in range(layers))
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, ids):
        h = self.emb(ids)
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if hasattr(self, f"adapter_{i}"):
                h = getattr(self, f"adapter_{i}")(h)
        return self.cls(h.mean(1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Encoder()
    model.load_state_dict(torch.load("pretrained_encoder.pt", map_location="cpu"), strict=False)
    model.to(device)
    model.requires_grad_(False)
    for i in range(len(model.layers)):
        model.add_module(f"adapter_{i}", Adapter(128))  # expect: DEV015
    model.cls.requires_grad_(True)
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trainable, lr=1e-3)
    for step in range(100):
        ids = torch.randint(0, 8000, (16, 64), device=device)
        y = torch.randint(0, 3, (16,), device=device)
        loss = F.cross_entropy(model(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
