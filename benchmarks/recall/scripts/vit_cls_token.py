"""A small Vision Transformer: patch embedding, class token, learned position embeddings."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ViT(nn.Module):
    def __init__(self, image_size=16, patch=4, dim=32, depth=2, heads=4, num_classes=5):
        super().__init__()
        num_patches = (image_size // patch) ** 2
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.cls_token = torch.zeros(1, 1, dim)  # expect: DEV010
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, batch_first=True, norm_first=True)
        self.transformer = nn.TransformerEncoder(layer, depth)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, img):
        x = self.patch_embed(img).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.size(0), -1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos_embed
        x = self.transformer(x)
        return self.head(self.norm(x[:, 0]))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = ViT().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
loader = DataLoader(TensorDataset(torch.rand(24, 3, 16, 16), torch.randint(0, 5, (24,))), batch_size=8, shuffle=True)

for epoch in range(2):
    for imgs, labels in loader:
        imgs, labels = imgs.to(device), labels.to(device)
        loss = nn.functional.cross_entropy(model(imgs), labels, label_smoothing=0.1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
