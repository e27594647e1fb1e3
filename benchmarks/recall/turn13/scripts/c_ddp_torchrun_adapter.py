"""torchrun DDP fine-tuning of bottleneck adapters on a frozen text classifier.

Launch: torchrun --nproc_per_node=2 c_ddp_torchrun_adapter.py

Written from pytorch/examples "DDP: why does every process allocate memory of GPU 0",
"Adds torch.cuda.set_device calls to DDP examples" and pytorch "got device_ids [0],
output_device 0, and module parameters {device(type='cpu')}": every rank picks cuda:0, and
the model is wrapped in DDP before it is moved.
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class Adapter(nn.Module):
    def __init__(self, d, bottleneck=16):
        super().__init__()
        self.down = nn.Linear(d, bottleneck)
        self.up = nn.Linear(bottleneck, d)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, x):
        return x + self.up(F.gelu(self.down(x)))


class AdapterClassifier(nn.Module):
    def __init__(self, vocab=1000, d=64, n_classes=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d, mode="mean")
        self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(2)])
        self.adapters = nn.ModuleList([Adapter(d) for _ in range(2)])
        self.cls = nn.Linear(d, n_classes)
        for mod in (self.emb, self.layers):
            mod.requires_grad_(False)

    def forward(self, ids):
        h = self.emb(ids)
        for layer, adapter in zip(self.layers, self.adapters):
            h = adapter(torch.relu(layer(h)))
        return self.cls(h)


def main():
    use_cuda = torch.cuda.is_available()
    dist.init_process_group(backend="nccl" if use_cuda else "gloo")
    rank = dist.get_rank()
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device("cuda:0" if use_cuda else "cpu")  # expect: DEV013
    torch.manual_seed(0)

    model = AdapterClassifier()
    model = DDP(model, device_ids=[local_rank] if use_cuda else None)  # expect: DEV014
    model.to(device)

    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 1000, (4096, 12), generator=g)
    labels = (ids[:, 0] % 3)
    dataset = TensorDataset(ids, labels)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=64, sampler=sampler)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)

    for epoch in range(3):
        sampler.set_epoch(epoch)
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}")

    if rank == 0:
        adapters = {k: v.cpu() for k, v in model.module.state_dict().items() if "adapters" in k}
        torch.save(adapters, "adapters.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
