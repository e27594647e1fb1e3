"""Score a batch of tickets: python score.py [--checkpoint ckpt.pt] [--cpu]"""
import argparse
import json
import os
import tempfile

from scoring.config import ScoringConfig, pick_device
from scoring.engine import run
from scoring.postprocess import summarize
from scoring.registry import build, load_model, save_model

SAMPLE = [
    ("T-1", "app crashes when I upload a photo"),
    ("T-2", "charged twice this month please refund"),
    ("T-3", "could you add dark mode"),
    ("T-4", "how do I export my data"),
    ("T-5", "error 500 on login page since the update"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", default="")
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()

    cfg = ScoringConfig(checkpoint=args.checkpoint, force_cpu=args.cpu)
    if not cfg.checkpoint:
        cfg.checkpoint = os.path.join(tempfile.mkdtemp(), "ticket_clf.pt")
        save_model(build(cfg), cfg.checkpoint)
    device = pick_device(cfg)
    model = load_model(cfg, device)
    records = run(model, SAMPLE, cfg, device)
    print(json.dumps(records[:2], indent=1))
    print(summarize(records))


if __name__ == "__main__":
    main()
