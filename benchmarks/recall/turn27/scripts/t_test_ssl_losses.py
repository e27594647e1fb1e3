"""Unit tests for the contrastive and distillation losses."""
import unittest

import torch
import torch.nn.functional as F


def info_nce(z1, z2, temperature=0.1):
    z1, z2 = F.normalize(z1, dim=1), F.normalize(z2, dim=1)
    logits = z1 @ z2.t() / temperature
    targets = torch.arange(z1.size(0), device=z1.device)
    return F.cross_entropy(logits, targets)


def distill_kl(student_logits, teacher_logits, T=2.0):
    return F.kl_div(F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1),
                    reduction="batchmean") * T * T


class TestInfoNCE(unittest.TestCase):
    def test_identical_views_low_loss(self):
        z = torch.eye(8) * 5
        self.assertLess(info_nce(z, z).item(), 0.01)

    @unittest.skipUnless(torch.cuda.is_available(), "needs a GPU")
    def test_on_gpu_matches_cpu(self):
        z1, z2 = torch.randn(6, 4), torch.randn(6, 4)
        cpu = info_nce(z1, z2)
        gpu = info_nce(z1.cuda(), z2.cuda())
        self.assertAlmostEqual(cpu.item(), gpu.item(), places=4)


class TestDistillKL(unittest.TestCase):
    def test_zero_for_equal_logits(self):
        s = torch.randn(5, 10)
        self.assertAlmostEqual(distill_kl(s, s.clone()).item(), 0.0, places=5)

    def test_half_precision_gpu(self):
        s = torch.randn(5, 10, device="cuda").half()  # expect: DEV022
        t = torch.randn(5, 10, device=s.device).half()
        self.assertTrue(torch.isfinite(distill_kl(s.float(), t.float())))


if __name__ == "__main__":
    unittest.main()
