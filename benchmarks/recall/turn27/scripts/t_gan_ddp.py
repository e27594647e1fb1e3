"""Data-parallel GAN training under torchrun (one process per GPU).

    torchrun --nproc_per_node=2 t_gan_ddp.py
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

NZ = 32


def generator():
    return nn.Sequential(nn.Linear(NZ, 128), nn.ReLU(), nn.Linear(128, 784), nn.Tanh())


def discriminator():
    return nn.Sequential(nn.Linear(784, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1))


def main(epochs=2):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)

    netD = DDP(discriminator().to(device), device_ids=[local_rank])
    netG = DDP(generator(), device_ids=[local_rank])  # expect: DEV014
    netG.to(device)
    opt_d = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_g = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()

    ds = TensorDataset(torch.rand(1024, 784) * 2 - 1)
    sampler = DistributedSampler(ds)
    loader = DataLoader(ds, batch_size=64, sampler=sampler)
    fixed_noise = torch.randn(16, NZ, device="cuda:0")  # expect: DEV013

    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for (real,) in loader:
            real = real.to(device, non_blocking=True)
            b = real.size(0)
            ones = torch.ones(b, 1, device=device)
            zeros = torch.zeros(b, 1, device=device)
            fake = netG(torch.randn(b, NZ, device=device))
            d_loss = bce(netD(real), ones) + bce(netD(fake.detach()), zeros)
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()
            g_loss = bce(netD(fake), ones)
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()
        with torch.no_grad():
            samples = netG.module(fixed_noise)
        if dist.get_rank() == 0:
            torch.save(samples.cpu(), f"samples_{epoch}.pt")
            print(f"epoch {epoch} d={d_loss.item():.3f} g={g_loss.item():.3f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
