"""torchrun DDP script done right: each rank on its own GPU, checkpoints remapped onto it."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

CKPT = "ddp_checkpoint.pt"


def setup():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    return local_rank, dist.get_rank(), dist.get_world_size()


def main():
    local_rank, rank, world_size = setup()
    device = torch.device(f"cuda:{local_rank}")
    model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4)).to(device)
    if os.path.exists(CKPT):
        state = torch.load(CKPT, map_location={"cuda:0": f"cuda:{local_rank}"})
        model.load_state_dict(state)
    model = DDP(model, device_ids=[local_rank])

    ds = TensorDataset(torch.randn(128, 16), torch.randint(0, 4, (128,)))
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank)
    loader = DataLoader(ds, batch_size=8, sampler=sampler)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for epoch in range(2):
        sampler.set_epoch(epoch)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        loss_t = loss.detach().clone()
        dist.all_reduce(loss_t, op=dist.ReduceOp.AVG)
        if rank == 0:
            print(f"epoch {epoch} mean loss {loss_t.item():.4f}")
            torch.save(model.module.state_dict(), CKPT)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
