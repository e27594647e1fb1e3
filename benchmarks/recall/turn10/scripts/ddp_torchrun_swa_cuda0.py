"""torchrun training with stochastic weight averaging: the averaged copy is kept apart from the
DDP model, updated after every epoch of the SWA phase and evaluated at the end on every rank.

    torchrun --nproc_per_node=4 ddp_torchrun_swa_cuda0.py

Thread: https://github.com/pytorch/pytorch/issues/9871 (GPU 0 out of memory even though each
process was meant to use a GPU of its own).
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.optim.swa_utils import SWALR, AveragedModel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main(epochs=10, swa_start=6):
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    torch.cuda.set_device(local_rank)
    device = torch.device(f"cuda:{local_rank}")
    model = nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Linear(128, 5)).to(device)
    ddp = DDP(model, device_ids=[local_rank])
    swa_model = AveragedModel(model, device="cuda:0")  # expect: DEV013
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9)
    swa_sched = SWALR(opt, swa_lr=0.01)
    data = TensorDataset(torch.randn(2048, 24), torch.randint(0, 5, (2048,)))
    sampler = DistributedSampler(data)
    loader = DataLoader(data, batch_size=64, sampler=sampler)
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(ddp(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch >= swa_start:
            swa_model.update_parameters(model)
            swa_sched.step()
    correct = torch.zeros(2, device=device)
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            correct += torch.stack([(swa_model(x).argmax(-1) == y).sum(), torch.tensor(len(y), device=device)])
    dist.all_reduce(correct)
    if dist.get_rank() == 0:
        print(f"swa accuracy {(correct[0] / correct[1]).item():.3f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
