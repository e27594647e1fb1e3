"""Small HiFi-GAN style vocoder (mel -> waveform) with a multi-scale discriminator.

    python k_hifigan_resume.py --steps 20 --ckpt voc.pt
    python k_hifigan_resume.py --steps 20 --ckpt voc.pt --resume
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

HOP = 64
N_MELS = 20


class ResBlock(nn.Module):
    def __init__(self, ch, dilations=(1, 3, 5)):
        super().__init__()
        self.convs = nn.ModuleList(
            [nn.Conv1d(ch, ch, 3, dilation=d, padding=d) for d in dilations])

    def forward(self, x):
        for c in self.convs:
            x = x + c(F.leaky_relu(x, 0.1))
        return x


class Generator(nn.Module):
    def __init__(self, ch=64, upsample=(8, 8)):
        super().__init__()
        self.pre = nn.Conv1d(N_MELS, ch, 7, padding=3)
        self.ups = nn.ModuleList()
        c = ch
        for r in upsample:
            self.ups.append(nn.ConvTranspose1d(c, c // 2, r * 2, stride=r, padding=r // 2))
            c //= 2
        self.resblocks = [ResBlock(ch // 2 ** (i + 1)) for i in range(len(upsample))]  # expect: DEV009
        self.post = nn.Conv1d(c, 1, 7, padding=3)

    def forward(self, mel):
        x = self.pre(mel)
        for up, rb in zip(self.ups, self.resblocks):
            x = rb(up(F.leaky_relu(x, 0.1)))
        return torch.tanh(self.post(F.leaky_relu(x)))


class ScaleDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.Conv1d(1, 16, 15, padding=7),
            nn.Conv1d(16, 32, 41, stride=4, groups=4, padding=20),
            nn.Conv1d(32, 32, 5, padding=2),
        ])
        self.out = nn.Conv1d(32, 1, 3, padding=1)

    def forward(self, x):
        feats = []
        for layer in self.layers:
            x = F.leaky_relu(layer(x), 0.1)
            feats.append(x)
        return self.out(x), feats


class MultiScaleDiscriminator(nn.Module):
    def __init__(self, n=3):
        super().__init__()
        self.discs = nn.ModuleList([ScaleDiscriminator() for _ in range(n)])
        self.pool = nn.AvgPool1d(4, 2, padding=2)

    def forward(self, y):
        outs = []
        for i, d in enumerate(self.discs):
            if i > 0:
                y = self.pool(y)
            outs.append(d(y))
        return outs


def fake_pair(batch=4, frames=16):
    mel = torch.randn(batch, N_MELS, frames)
    t = torch.arange(frames * HOP) / 8000.0
    wav = torch.sin(2 * torch.pi * 220 * t)[None, None].repeat(batch, 1, 1) * 0.5
    return mel, wav


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--ckpt", default="voc.pt")
    p.add_argument("--resume", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    gen, msd = Generator(), MultiScaleDiscriminator()
    opt_g = torch.optim.AdamW(gen.parameters(), 2e-4, betas=(0.8, 0.99))
    opt_d = torch.optim.AdamW(msd.parameters(), 2e-4, betas=(0.8, 0.99))
    start = 0

    if args.resume and os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location="cpu")
        gen.load_state_dict(state["gen"])
        msd.load_state_dict(state["msd"])
        opt_g.load_state_dict(state["opt_g"])  # expect: DEV017
        opt_d.load_state_dict(state["opt_d"])  # expect: DEV017
        start = state["step"]
        print("resumed from step", start)

    gen.to(device)
    msd.to(device)

    for step in range(start, start + args.steps):
        mel, wav = fake_pair()
        mel, wav = mel.to(device), wav.to(device)
        fake = gen(mel)

        # discriminator
        d_loss = 0.0
        for (real_out, _), (fake_out, _) in zip(msd(wav), msd(fake.detach())):
            d_loss = d_loss + torch.mean((1 - real_out) ** 2) + torch.mean(fake_out ** 2)
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        # generator: adversarial + feature matching + L1 on the waveform
        g_adv, fm = 0.0, 0.0
        for (real_out, real_f), (fake_out, fake_f) in zip(msd(wav), msd(fake)):
            g_adv = g_adv + torch.mean((1 - fake_out) ** 2)
            fm = fm + sum(F.l1_loss(f, r.detach()) for f, r in zip(fake_f, real_f))
        g_loss = g_adv + 2 * fm + 45 * F.l1_loss(fake, wav)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        if step % 10 == 0:
            print(f"step {step} d {d_loss.item():.3f} g {g_loss.item():.3f}")

    torch.save({"gen": gen.state_dict(), "msd": msd.state_dict(),
                "opt_g": opt_g.state_dict(), "opt_d": opt_d.state_dict(),
                "step": start + args.steps}, args.ckpt)


if __name__ == "__main__":
    main()
