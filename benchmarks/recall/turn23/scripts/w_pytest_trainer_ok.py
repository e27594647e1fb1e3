"""(Correct) pytest suite for a small trainer class (the class is inlined to keep the file self-contained)."""
import copy

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyTrainer:
    def __init__(self, model, device="cpu", amp=False, lr=0.1):
        self.device = torch.device(device)
        self.model = model.to(self.device)
        self.amp = amp and self.device.type == "cuda"
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.scaler = torch.amp.GradScaler(self.device.type, enabled=self.amp)

    def step(self, x, y):
        x, y = x.to(self.device), y.to(self.device)
        with torch.autocast(self.device.type, enabled=self.amp):
            loss = F.mse_loss(self.model(x), y)
        self.opt.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.opt)
        self.scaler.update()
        return loss.item()

    def state_dict(self):
        return {"model": self.model.state_dict(), "opt": self.opt.state_dict(),
                "scaler": self.scaler.state_dict()}


@pytest.fixture
def data():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(64, 4, generator=g)
    return x, x.sum(1, keepdim=True)


@pytest.fixture
def model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))


def test_step_reduces_loss(model, data):
    trainer = TinyTrainer(model)
    first = trainer.step(*data)
    for _ in range(20):
        last = trainer.step(*data)
    assert last < first


def test_state_dict_roundtrip(model, data):
    trainer = TinyTrainer(model)
    trainer.step(*data)
    clone = TinyTrainer(copy.deepcopy(model))
    clone.model.load_state_dict(trainer.state_dict()["model"])
    x, _ = data
    torch.testing.assert_close(clone.model(x), trainer.model(x))


requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


@requires_cuda
def test_amp_step_matches_fp32(model, data):
    fp32 = TinyTrainer(copy.deepcopy(model), device="cpu")
    amp = TinyTrainer(copy.deepcopy(model), device="cuda", amp=True)
    loss_fp32 = fp32.step(*data)
    loss_amp = amp.step(*data)
    assert abs(loss_fp32 - loss_amp) < 1e-2 * max(1.0, loss_fp32)
