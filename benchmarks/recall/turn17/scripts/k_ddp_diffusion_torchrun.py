"""Data-parallel DDPM training.

    torchrun --nproc_per_node=4 k_ddp_diffusion_torchrun.py --resume runs/last.pt
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class Denoiser(nn.Module):
    def __init__(self, T, ch=64):
        super().__init__()
        self.t_embed = nn.Embedding(T, ch)
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.mid = nn.Sequential(nn.SiLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.SiLU())
        self.conv_out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t):
        h = self.conv_in(x) + self.t_embed(t)[:, :, None, None]
        return self.conv_out(self.mid(h))


def setup():
    dist.init_process_group(backend="nccl")
    rank = dist.get_rank()
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda:0")  # expect: DEV013
    torch.cuda.set_device(device)
    return rank, local_rank, device


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--T", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--resume", type=str, default="")
    parser.add_argument("--out", type=str, default="runs")
    args = parser.parse_args()

    rank, local_rank, device = setup()

    betas = torch.linspace(1e-4, 0.02, args.T, device=device)
    alphas_cumprod = torch.cumprod(1 - betas, 0)

    net = Denoiser(args.T)
    model = DDP(net, device_ids=[local_rank])  # expect: DEV014
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
    start_epoch = 0

    if args.resume and os.path.isfile(args.resume):
        ckpt = torch.load(args.resume)  # expect: DEV008
        model.module.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["opt"])
        start_epoch = ckpt["epoch"] + 1

    data = TensorDataset(torch.rand(1024, 3, 16, 16) * 2 - 1)
    sampler = DistributedSampler(data, shuffle=True)
    loader = DataLoader(data, batch_size=args.batch_size, sampler=sampler, drop_last=True)

    for epoch in range(start_epoch, args.epochs):
        sampler.set_epoch(epoch)
        for (x0,) in loader:
            x0 = x0.to(device, non_blocking=True)
            t = torch.randint(0, args.T, (x0.size(0),), device=device)
            noise = torch.randn_like(x0)
            ab = alphas_cumprod[t].view(-1, 1, 1, 1)
            loss = F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t), noise)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        if rank == 0:
            os.makedirs(args.out, exist_ok=True)
            torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": epoch},
                       os.path.join(args.out, "last.pt"))
            print(f"epoch {epoch} loss {loss.item():.4f}")

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
