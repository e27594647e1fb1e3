"""Masked-autoencoder style pre-training of a tiny ViT encoder on satellite tiles:
random patch masking with per-sample noise, reconstruction loss on the masked patches."""
import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, img=32, patch=8, ch=4, dim=64):
        super().__init__()
        self.proj = nn.Conv2d(ch, dim, patch, stride=patch)
        self.num_patches = (img // patch) ** 2

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class TinyMAE(nn.Module):
    def __init__(self, img=32, patch=8, ch=4, dim=64, mask_ratio=0.75):
        super().__init__()
        self.patch = patch
        self.embed = PatchEmbed(img, patch, ch, dim)
        self.pos_embed = nn.Parameter(torch.zeros(1, self.embed.num_patches, dim))
        self.mask_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 128, batch_first=True), 2)
        self.decoder = nn.Linear(dim, patch * patch * ch)
        self.mask_ratio = mask_ratio
        nn.init.normal_(self.pos_embed, std=0.02)

    def random_masking(self, x):
        B, L, D = x.shape
        keep = int(L * (1 - self.mask_ratio))
        noise = torch.rand(B, L, device=x.device)
        ids_shuffle = noise.argsort(dim=1)
        ids_restore = ids_shuffle.argsort(dim=1)
        ids_keep = ids_shuffle[:, :keep]
        x_kept = torch.gather(x, 1, ids_keep.unsqueeze(-1).expand(-1, -1, D))
        mask = torch.ones(B, L, device=x.device)
        mask[:, :keep] = 0
        mask = torch.gather(mask, 1, ids_restore.to(x.device))
        return x_kept, mask, ids_restore

    def patchify(self, imgs):
        p = self.patch
        B, C, H, W = imgs.shape
        x = imgs.reshape(B, C, H // p, p, W // p, p)
        return x.permute(0, 2, 4, 3, 5, 1).reshape(B, (H // p) * (W // p), p * p * C)

    def forward(self, imgs):
        x = self.embed(imgs) + self.pos_embed
        x_kept, mask, ids_restore = self.random_masking(x)
        z = self.encoder(x_kept)
        B, L = mask.shape
        filler = self.mask_token.expand(B, L - z.shape[1], -1)
        full = torch.cat([z, filler], dim=1)
        full = torch.gather(full, 1, ids_restore.to(full.device).unsqueeze(-1).expand(-1, -1, full.shape[-1]))
        pred = self.decoder(full + self.pos_embed)
        target = self.patchify(imgs)
        loss = ((pred - target) ** 2).mean(dim=-1)
        return (loss * mask).sum() / mask.sum()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyMAE().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1.5e-4, weight_decay=0.05)
    tiles = torch.randn(32, 4, 32, 32)
    for step in range(6):
        model.train()
        batch = tiles[torch.randint(0, len(tiles), (8,))].to(device)
        loss = model(batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
