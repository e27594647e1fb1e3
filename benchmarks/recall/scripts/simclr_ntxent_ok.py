"""InfoNCE / CLIP-style symmetric contrastive loss; helper tensors follow the embeddings' device."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, d_img=20, d_txt=12, d=16):
        super().__init__()
        self.img = nn.Sequential(nn.Linear(d_img, 32), nn.ReLU(), nn.Linear(32, d))
        self.txt = nn.Sequential(nn.Linear(d_txt, 32), nn.ReLU(), nn.Linear(32, d))
        self.logit_scale = nn.Parameter(torch.tensor(2.659))

    def forward(self, images, texts):
        return F.normalize(self.img(images), dim=-1), F.normalize(self.txt(texts), dim=-1)


def clip_loss(img_emb, txt_emb, logit_scale):
    logits = logit_scale.exp() * img_emb @ txt_emb.t()
    labels = torch.arange(logits.size(0), device=logits.device)
    diag = torch.eye(logits.size(0), dtype=torch.bool, device=logits.device)
    hardest_negative = logits.masked_fill(diag, float("-inf")).max(dim=1).values.mean()
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    return loss, hardest_negative


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = DualEncoder().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
pairs = [(torch.randn(8, 20), torch.randn(8, 12)) for _ in range(3)]

for step, (images, texts) in enumerate(pairs):
    img_emb, txt_emb = model(images.to(device), texts.to(device))
    loss, hard_neg = clip_loss(img_emb, txt_emb, model.logit_scale)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} hardest negative {hard_neg.item():.3f}")
