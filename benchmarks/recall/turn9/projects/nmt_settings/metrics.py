"""Token accuracy and exact-match for the translation model, computed with NumPy.

Thread: https://github.com/xiaxin1998/DHCN/issues/14 (can't convert cuda:0 device type tensor to numpy).
"""
import numpy as np


def token_accuracy(logits, target):
    pred = logits.argmax(-1).numpy()  # expect: DEV011
    gold = target.cpu().numpy()
    return float((pred == gold).mean()), float((pred == gold).all(1).mean())
