"""Run settings for the toy translation model, read by train.py and evaluate.py.

Thread: https://github.com/sooftware/kospeech/issues/10 (use_cuda from the config, decoder tensors
made in the model on the CPU).
"""
import torch

USE_CUDA = True
DEVICE = torch.device("cuda" if USE_CUDA and torch.cuda.is_available() else "cpu")
SOS, EOS, VOCAB = 1, 2, 60
HIDDEN = 32
