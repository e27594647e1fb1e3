import pytest
import torch
import torch.nn.functional as F

from l_kd_small_student import StudentNet, kd_kl


def test_kd_is_zero_for_identical_logits():
    logits = torch.randn(8, 10)
    assert kd_kl(logits, logits.clone(), T=4.0).abs().item() < 1e-6


def test_kd_scales_with_temperature_squared():
    torch.manual_seed(0)
    s, t = torch.randn(16, 10), torch.randn(16, 10)
    manual = F.kl_div(F.log_softmax(s / 2.0, 1), F.softmax(t / 2.0, 1), reduction="batchmean") * 4.0
    assert torch.allclose(kd_kl(s, t, T=2.0), manual)


@pytest.mark.parametrize("T", [1.0, 4.0, 8.0])
def test_kd_gradient_only_reaches_student(T):
    s = torch.randn(4, 10, requires_grad=True)
    t = torch.randn(4, 10, requires_grad=True)
    kd_kl(s, t.detach(), T).backward()
    assert s.grad is not None and t.grad is None


def test_student_forward_half_precision_on_gpu():
    model = StudentNet().cuda().half().eval()  # expect: DEV022
    x = torch.randn(2, 3, 16, 16, device=next(model.parameters()).device, dtype=torch.half)
    with torch.no_grad():
        out = model(x)
    assert out.shape == (2, 10) and out.dtype == torch.half
    assert torch.isfinite(out).all()
