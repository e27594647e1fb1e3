"""Hyper-parameters and device choice for the two-tower recommender."""
import argparse

import torch


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--users", type=int, default=2000)
    p.add_argument("--items", type=int, default=5000)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--negatives", type=int, default=8)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args(argv)
    args.device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    return args
