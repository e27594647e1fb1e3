"""The fixes of DEV005-DEV022 write the edit their docs promise, and nothing else."""
from __future__ import annotations

import textwrap

import pytest

from devlint.lint.analyze import analyze_source
from devlint.core.selection import Selection
from devlint.lint.fix import apply_fixes
from devlint.lint.rules import ALL_RULES

EXAMPLE_FILES = {rule.code: rule.example_file for rule in ALL_RULES}

HEADER = "import torch\nimport torch.nn as nn\n\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"

CASES = {
    "DEV005": (
        "for x, y in loader:\n    x.to(device)\n",
        "    x = x.to(device)\n",
    ),
    "DEV006": (
        """
        class Enc(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = nn.GRU(4, 8)

            def forward(self, x):
                h = torch.zeros(1, x.size(1), 8)
                return self.rnn(x, h)


        model = Enc().to(device)
        """,
        "h = torch.zeros(1, x.size(1), 8, device=x.device)",
    ),
    "DEV007": (
        """
        model = nn.Linear(4, 1)
        for x, y in loader:
            model.to(device)
            loss = model(x.to(device)).sum()
            loss.backward()
        """,
        "model.to(device)\nfor x, y in loader:\n    loss =",
    ),
    "DEV008": (
        "state = torch.load('ckpt.pt')\n",
        "state = torch.load('ckpt.pt', map_location=device)",
    ),
    "DEV009": (
        """
        class MLP(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = [nn.Linear(4, 4) for _ in range(3)]
        """,
        "self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])",
    ),
    "DEV010": (
        """
        class Norm(nn.Module):
            def __init__(self):
                super().__init__()
                self.mean = torch.tensor([0.5, 0.5])

            def forward(self, x):
                return x - self.mean
        """,
        'self.register_buffer("mean", torch.tensor([0.5, 0.5]), persistent=False)',
    ),
    "DEV011": (
        """
        model = nn.Linear(4, 2).to(device)
        for x, y in loader:
            out = model(x.to(device))
            print(out.numpy())
        """,
        "print(out.detach().cpu().numpy())",
    ),
    "DEV012": (
        "model = nn.Linear(4, 2).to(device)\ncriterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0]))\n",
        "criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0])).to(device)",
    ),
    "DEV013": (
        "import os\nlocal_rank = int(os.environ['LOCAL_RANK'])\ntorch.distributed.init_process_group('nccl')\n"
        "torch.cuda.set_device(0)\nx = torch.zeros(2, device='cuda:0')\n",
        "torch.cuda.set_device(local_rank)\nx = torch.zeros(2, device=f\"cuda:{local_rank}\")",
    ),
    "DEV014": (
        "import os\nfrom torch.nn.parallel import DistributedDataParallel as DDP\n"
        "torch.distributed.init_process_group('nccl')\nmodel = DDP(nn.Linear(4, 1))\n"
        "model.to(device)\n",
        "model = DDP(nn.Linear(4, 1).to(device))\nmodel.to(device)\n",
    ),
    "DEV015": (
        "model = nn.Sequential(nn.Linear(4, 8)).to(device)\nmodel.head = nn.Linear(8, 2)\n",
        "model.head = nn.Linear(8, 2).to(device)\n",
    ),
    "DEV016": (
        "import copy\nmodel = nn.Linear(4, 2)\nema = copy.deepcopy(model)\nmodel.to(device)\n"
        "out = ema(torch.ones(1, 4, device=device))\n",
        "ema = copy.deepcopy(model).to(device)\n",
    ),
    "DEV017": (
        "model = nn.Linear(4, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "ckpt = torch.load('c.pt', map_location='cpu')\nopt.load_state_dict(ckpt['opt'])\n"
        "model.to(device)\n",
        "model.to(device)\nopt.load_state_dict(ckpt['opt'])\n",
    ),
    "DEV019": (
        "import torchmetrics\nacc = torchmetrics.Accuracy(task='binary')\n"
        "acc.update(torch.rand(4).to(device), torch.ones(4).to(device))\n",
        "acc = torchmetrics.Accuracy(task='binary').to(device)\n",
    ),
    "DEV021": (
        "x = torch.ones(2).to(device)\nm = (x > 0).type(torch.ByteTensor)\ny = x * m\n",
        "m = (x > 0).type(torch.uint8)\n",
    ),
    "DEV022": (
        "import pytest\n\n\ndef test_gpu():\n    assert torch.ones(1).cuda().is_cuda\n",
        '@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")\ndef test_gpu():',
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_fix_writes_the_documented_edit(code: str) -> None:
    body, expected = CASES[code]
    text = HEADER + textwrap.dedent(body).lstrip("\n")
    name = EXAMPLE_FILES[code]  # DEV022's are test modules
    findings = [f for f in analyze_source(text, name, Selection(select=(code,))) if f.code == code]
    assert findings, f"{code} found nothing"
    outcome = apply_fixes(text, findings, unsafe=True)
    assert not outcome.error, outcome.error
    assert expected in outcome.text, outcome.text
    again = analyze_source(outcome.text, name, Selection(select=(code,)))
    assert not [f for f in again if f.fix is not None], "the fix is not idempotent"


def test_a_factory_without_a_device_keyword_gets_no_device_fix() -> None:
    """`torch.from_numpy(a, device=...)` raises TypeError: DEV006 says to move the tensor and
    offers no edit; and `arr.device` of a NumPy input is never the device it names."""
    source = HEADER + textwrap.dedent("""
        import numpy as np


        class ArrayInput(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(3, 3)

            def forward(self, arr: np.ndarray):
                return self.proj(torch.from_numpy(arr))


        model = ArrayInput().to(device)
        """)
    findings = [f for f in analyze_source(source, "t.py", Selection()) if f.code == "DEV006"]
    assert len(findings) == 1 and findings[0].fix is None, findings
    assert "`.to(...)`" in findings[0].message and "arr.device" not in findings[0].message


def test_a_legacy_typed_constructor_gets_no_device_fix() -> None:
    """`torch.LongTensor(x, device="cuda")` raises ("legacy constructor expects device type:
    cpu"): DEV006 says to move the tensor and offers no edit."""
    source = HEADER + textwrap.dedent("""
        def validate(model, criterion, loader, device):
            for images, labels in loader:
                images = images.to(device)
                preds = model(images)
                target = torch.LongTensor(labels)
                print(criterion(preds, target).item())
        """)
    findings = [f for f in analyze_source(source, "t.py", Selection()) if f.code == "DEV006"]
    assert len(findings) == 1 and findings[0].fix is None, findings
    assert "`.to(...)`" in findings[0].message


def test_data_cast_to_a_tensor_type_names_no_device() -> None:
    """`imgs.type(Tensor)` with `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`
    (the GAN collections) moves the data, but `Tensor` is a type: `torch.rand(..., device=Tensor)`
    raises. The fix names a device or is left out (PyTorch-GAN's DRAGAN, held-out set 18)."""
    source = textwrap.dedent("""
        import numpy as np
        import torch

        cuda = torch.cuda.is_available()
        Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
        D = torch.nn.Linear(4, 1)
        if cuda:
            D.cuda()


        def penalty(D, X):
            noisy = X + 0.5 * X.std() * torch.rand(X.size())
            return D(noisy).mean()


        for imgs in [np.random.rand(2, 4) for _ in range(3)]:
            real = torch.from_numpy(imgs).type(Tensor)
            print(penalty(D, real).item())
        """)
    findings = [f for f in analyze_source(source, "t.py", Selection()) if f.code == "DEV006"]
    assert len(findings) == 1, findings
    assert "Tensor`" not in findings[0].message and "device=Tensor" not in findings[0].message
    edits = findings[0].fix.edits if findings[0].fix is not None else ()
    assert all("device=Tensor" not in edit.content for edit in edits)
