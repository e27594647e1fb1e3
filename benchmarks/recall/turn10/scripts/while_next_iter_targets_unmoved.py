"""Step-based training of a depth-regression head: instead of epochs, a fixed number of
optimisation steps is run with next() on an iterator that is rebuilt when the loader runs out.

Thread: https://github.com/urchade/semi-supervised-learning/issues/2 (a training loop driven by
next(iter(loader)) with StopIteration handling).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def infinite(loader):
    it = iter(loader)
    while True:
        try:
            yield next(it)
        except StopIteration:
            it = iter(loader)


def main(max_steps=300, log_every=50):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    images = torch.rand(400, 3, 32, 32)
    depth = images.mean(1, keepdim=True) * 10
    loader = DataLoader(TensorDataset(images, depth), batch_size=16, shuffle=True, drop_last=True)
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 1, 1),
    ).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=max_steps)
    stream = infinite(loader)
    step = 0
    while step < max_steps:
        rgb, target = next(stream)
        rgb = rgb.to(device)
        pred = model(rgb)
        loss = F.huber_loss(pred, target, delta=0.5)  # expect: DEV004
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        step += 1
        if step % log_every == 0:
            print(step, loss.item())


if __name__ == "__main__":
    main()
