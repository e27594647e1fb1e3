"""Device selection that works on any machine: an ordinal chosen only when that many GPUs exist,
a --gpu flag defaulting to the first GPU, and a checkpoint loaded with map_location."""
import argparse
import os

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=int, default=0)
parser.add_argument("--ckpt", default="selection_ok.pt")
args = parser.parse_args()

if torch.cuda.device_count() > 1:
    torch.cuda.set_device(1)
    aux_device = torch.device("cuda:1")
elif torch.cuda.is_available():
    aux_device = torch.device("cuda:0")
else:
    aux_device = torch.device("cpu")
main_device = torch.device(f"cuda:{args.gpu}" if torch.cuda.is_available() else "cpu")

model = nn.Linear(16, 4)
if os.path.exists(args.ckpt):
    model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
model = model.to(main_device)
scorer = nn.Linear(4, 1).to(aux_device)
with torch.no_grad():
    out = model(torch.randn(3, 16, device=main_device))
    print(scorer(out.to(aux_device)).squeeze(-1).tolist())
torch.save(model.state_dict(), args.ckpt)
