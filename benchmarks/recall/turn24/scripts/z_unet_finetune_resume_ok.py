"""Resume a latent-diffusion fine-tune: the new class embedding is attached before the move,
the optimizer state is loaded after it, and the autoencoder takes a second GPU only if one exists."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyAE(nn.Module):
    def __init__(self, latent=4):
        super().__init__()
        self.enc = nn.Conv2d(3, latent, 4, 4)

    def encode(self, x):
        return self.enc(x)


class TinyUNet(nn.Module):
    def __init__(self, latent=4, ch=32, T=100):
        super().__init__()
        self.ch = ch
        self.temb = nn.Embedding(T, ch)
        self.inp = nn.Conv2d(latent, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, latent, 3, padding=1)

    def forward(self, z, t, y=None):
        h = F.silu(self.inp(z)) + self.temb(t)[:, :, None, None]
        if y is not None and hasattr(self, "class_emb"):
            h = h + self.class_emb(y)[:, :, None, None]
        return self.out(h)


def demo_checkpoint(path, num_classes):
    unet = TinyUNet()
    unet.class_emb = nn.Embedding(num_classes, unet.ch)
    opt = torch.optim.AdamW(unet.parameters(), lr=1e-4)
    z = torch.randn(2, 4, 8, 8)
    F.mse_loss(unet(z, torch.tensor([1, 2]), torch.tensor([0, 1])), z).backward()
    opt.step()
    torch.save({"unet": unet.state_dict(), "opt": opt.state_dict(), "step": 1}, path)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--resume", default="/tmp/unet_ft_ok.pt")
    p.add_argument("--num-classes", type=int, default=10)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--T", type=int, default=100)
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    vae_device = torch.device("cuda:1") if torch.cuda.device_count() > 1 else device
    if not os.path.exists(args.resume):
        demo_checkpoint(args.resume, args.num_classes)

    vae = TinyAE().to(vae_device).eval()
    unet = TinyUNet(T=args.T)
    unet.class_emb = nn.Embedding(args.num_classes, unet.ch)
    ckpt = torch.load(args.resume, map_location="cpu")
    unet.load_state_dict(ckpt["unet"])
    unet.to(device)
    opt = torch.optim.AdamW(unet.parameters(), lr=1e-4)
    opt.load_state_dict(ckpt["opt"])
    start = ckpt["step"]

    alphas_cumprod = torch.cumprod(1 - torch.linspace(1e-4, 0.02, args.T), 0).to(device)
    for step in range(start, start + args.steps):
        x = torch.rand(8, 3, 32, 32)
        y = torch.randint(0, args.num_classes, (8,), device=device)
        with torch.no_grad():
            z0 = vae.encode(x.to(vae_device)).to(device)
        t = torch.randint(0, args.T, (8,), device=device)
        noise = torch.randn_like(z0)
        ab = alphas_cumprod[t].view(-1, 1, 1, 1)
        loss = F.mse_loss(unet(ab.sqrt() * z0 + (1 - ab).sqrt() * noise, t, y), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("step", step, "loss", round(loss.item(), 4))
    os.remove(args.resume)


if __name__ == "__main__":
    main()
