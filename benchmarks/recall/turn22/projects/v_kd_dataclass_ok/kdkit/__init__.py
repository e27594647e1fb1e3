from .checkpoint import load_teacher, save_teacher
from .config import KDConfig
from .evaluate import per_class_recall
from .losses import build_hard_loss, kd_loss
from .models import Student, Teacher, make_ema

__all__ = ["KDConfig", "load_teacher", "save_teacher", "per_class_recall", "build_hard_loss", "kd_loss",
           "Student", "Teacher", "make_ema"]
