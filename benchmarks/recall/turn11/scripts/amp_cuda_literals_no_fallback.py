"""Mixed-precision training (autocast + GradScaler) of a small transformer encoder that tags
protein residues with one of three secondary-structure states.

Thread: https://github.com/yunjey/stargan/issues/11 (solver.py problem: "if you have no GPU, the
.cuda() will be runtime error, so you must judge the torch.cuda.is_available() first").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_AA, N_SS, PAD = 21, 3, -100


class ResidueTagger(nn.Module):
    def __init__(self, d=64, layers=2):
        super().__init__()
        self.emb = nn.Embedding(N_AA, d)
        self.pos = nn.Embedding(128, d)
        layer = nn.TransformerEncoderLayer(d, nhead=4, dim_feedforward=128, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.out = nn.Linear(d, N_SS)

    def forward(self, seq):
        positions = torch.arange(seq.size(1), device=seq.device)
        return self.out(self.encoder(self.emb(seq) + self.pos(positions)))


def main(epochs=2):
    device = torch.device("cuda")  # expect: DEV001
    model = ResidueTagger().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    scaler = torch.amp.GradScaler("cuda")
    seqs = torch.randint(0, N_AA, (512, 96))
    tags = torch.randint(0, N_SS, (512, 96))
    tags[:, 80:] = PAD
    loader = DataLoader(TensorDataset(seqs, tags), batch_size=32, shuffle=True, pin_memory=True)
    for epoch in range(epochs):
        for seq, tag in loader:
            seq, tag = seq.to(device, non_blocking=True), tag.to(device, non_blocking=True)
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                logits = model(seq)
                loss = F.cross_entropy(logits.flatten(0, 1), tag.flatten(), ignore_index=PAD)
            opt.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
