from dataclasses import dataclass, field

import torch


def default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class DistillConfig:
    # models
    vocab_size: int = 0                # filled in from the corpus
    teacher_dim: int = 128
    teacher_layers: int = 2
    student_dim: int = 48
    student_layers: int = 1
    teacher_ckpt: str = "runs/teacher_lm.pt"

    # data
    seq_len: int = 24
    batch_size: int = 32

    # distillation
    temperature: float = 2.0
    alpha_kd: float = 0.5        # weight of the soft-target KL
    alpha_hidden: float = 0.1    # weight of the hidden-state MSE

    # optimisation
    lr: float = 3e-3
    epochs: int = 2
    teacher_epochs: int = 2
    grad_clip: float = 1.0

    device: str = field(default_factory=default_device)
    out_dir: str = "runs"
