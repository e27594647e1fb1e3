"""pytest module for a padding collate function and a small GRU encoder; two of
the GPU tests carry no skip marker, the third one does.

Written from "Tests: improve CUDA support detection" (bitsandbytes#985: most
tests needed CUDA, only some were marked), "add back skip CPU container test when
using cuda device" (torchrec#3385) and "Add initial support for PyTorch backend"
(pytensor#764: `Torch not compiled with CUDA enabled` on CI runners without GPUs).
"""
import pytest
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


def collate(samples, pad_id=0, device=None):
    ids = [torch.as_tensor(s["ids"], dtype=torch.long) for s in samples]
    padded = pad_sequence(ids, batch_first=True, padding_value=pad_id)
    batch = {
        "input_ids": padded,
        "attention_mask": (padded != pad_id).long(),
        "labels": torch.tensor([s["label"] for s in samples]),
    }
    if device is not None:
        batch = {k: v.to(device) for k, v in batch.items()}
    return batch


class GRUEncoder(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)

    def forward(self, input_ids, attention_mask):
        out, _ = self.gru(self.emb(input_ids))
        last = attention_mask.sum(1) - 1
        return out[torch.arange(out.size(0), device=out.device), last]


SAMPLES = [{"ids": [3, 4, 5], "label": 1}, {"ids": [7, 8], "label": 0}, {"ids": [9, 2, 6, 1], "label": 1}]


def test_collate_pads_and_masks():
    batch = collate(SAMPLES)
    assert batch["input_ids"].shape == (3, 4)
    assert batch["attention_mask"].sum().item() == 9
    assert batch["input_ids"][1, 2:].eq(0).all()


def test_encoder_output_shape_cpu():
    enc = GRUEncoder()
    batch = collate(SAMPLES)
    assert enc(batch["input_ids"], batch["attention_mask"]).shape == (3, 16)


def test_collate_moves_to_device():
    batch = collate(SAMPLES, device="cuda")  # expect: DEV022
    assert all(t.is_cuda for t in batch.values())


def test_encoder_half_precision_on_gpu():
    enc = GRUEncoder().cuda().half()  # expect: DEV022
    batch = collate(SAMPLES, device=next(enc.parameters()).device)
    out = enc(batch["input_ids"], batch["attention_mask"])
    assert out.dtype == torch.float16


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_encoder_cpu_gpu_agree():
    torch.manual_seed(0)
    enc = GRUEncoder().eval()
    batch = collate(SAMPLES)
    ref = enc(batch["input_ids"], batch["attention_mask"])
    enc = enc.cuda()
    gpu_batch = collate(SAMPLES, device="cuda")
    got = enc(gpu_batch["input_ids"], gpu_batch["attention_mask"]).cpu()
    torch.testing.assert_close(got, ref, rtol=1e-4, atol=1e-4)
