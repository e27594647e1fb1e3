import pytest
import torch
import torch.nn as nn


class EdgeConv(nn.Module):
    """h_i' = max_j MLP([h_i, h_j - h_i]) over incoming edges j -> i."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * d_in, d_out), nn.ReLU())

    def forward(self, x, edge_index):
        src, dst = edge_index
        msg = self.mlp(torch.cat([x[dst], x[src] - x[dst]], dim=-1))
        out = torch.full((x.size(0), msg.size(-1)), float("-inf"), device=x.device, dtype=msg.dtype)
        out = out.scatter_reduce(0, dst[:, None].expand_as(msg), msg, reduce="amax")
        return torch.where(torch.isinf(out), torch.zeros_like(out), out)


def ring(n):
    src = torch.arange(n)
    return torch.stack([src, (src + 1) % n])


def test_output_shape():
    conv = EdgeConv(4, 8)
    out = conv(torch.randn(6, 4), ring(6))
    assert out.shape == (6, 8)


def test_isolated_node_is_zero():
    conv = EdgeConv(3, 5)
    ei = torch.tensor([[0, 1], [1, 0]])
    out = conv(torch.randn(3, 3), ei)
    assert torch.all(out[2] == 0)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_matches_cpu_on_gpu():
    torch.manual_seed(0)
    conv = EdgeConv(4, 4)
    x, ei = torch.randn(5, 4), ring(5)
    ref = conv(x, ei)
    got = conv.cuda()(x.cuda(), ei.cuda())
    torch.testing.assert_close(got.cpu(), ref)


def test_backward_on_device():
    dev = torch.device("cuda")  # expect: DEV022
    conv = EdgeConv(4, 4).to(dev)
    x = torch.randn(5, 4, device=dev, requires_grad=True)
    conv(x, ring(5).to(dev)).sum().backward()
    assert x.grad is not None and x.grad.device.type == "cuda"
