import torch


def batches(cfg, start, count):
    for i in range(start, start + count):
        g = torch.Generator().manual_seed(i)
        y = torch.multinomial(torch.tensor(cfg.class_counts, dtype=torch.float32), cfg.batch_size, True,
                              generator=g)
        x = torch.randn(cfg.batch_size, cfg.n_features, generator=g) + y.unsqueeze(1).float()
        yield {"x": x, "y": y}


def to_device(batch, device):
    return {k: v.to(device, non_blocking=True) for k, v in batch.items()}
