"""pytest suite for a convolutional sequence tagger."""
import pytest
import torch
from torch import nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA not available")


class ConvTagger(nn.Module):
    def __init__(self, vocab=100, dim=32, n_tags=5, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.conv = nn.Conv1d(dim, dim, kernel_size=3, padding=1)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        h = torch.relu(self.conv(h)).transpose(1, 2)
        return self.out(h)


@pytest.fixture
def model():
    torch.manual_seed(0)
    return ConvTagger().eval()


@pytest.fixture
def tokens():
    return torch.randint(1, 100, (4, 12))


class TestConvTagger:
    def test_output_shape(self, model, tokens):
        assert model(tokens).shape == (4, 12, 5)

    def test_batch_independence(self, model, tokens):
        full = model(tokens)
        single = model(tokens[1:2])
        torch.testing.assert_close(full[1:2], single)

    def test_gradients_reach_embedding(self, model, tokens):
        model.train()
        model(tokens).sum().backward()
        assert model.emb.weight.grad is not None
        assert model.emb.weight.grad[0].abs().sum() == 0  # padding row stays frozen

    @requires_cuda
    def test_cuda_matches_cpu(self, model, tokens):
        expected = model(tokens)
        got = model.cuda()(tokens.cuda()).cpu()
        torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)

    def test_half_precision_forward(self, model, tokens):
        model = model.half().cuda()  # expect: DEV022
        out = model(tokens.cuda())
        assert out.dtype == torch.float16
        assert torch.isfinite(out).all()
