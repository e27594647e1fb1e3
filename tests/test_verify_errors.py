"""Runtime errors mapped back to the static finding that explains them (no torch needed)."""
import textwrap

import pytest

from devlint.verify.errors import (
    DEVICE_MISMATCH, INVALID_ORDINAL, NO_CUDA, NUMPY_ON_DEVICE, OTHER, classify, explain, statement_span,
)

MISMATCH = ("Expected all tensors to be on the same device, but found at least two devices, "
            "cuda:0 and cpu! (when checking argument for argument target in method "
            "wrapper_CUDA_nll_loss2d_forward)")

SCRIPT = textwrap.dedent("""\
    import torch
    import torch.nn as nn

    device = torch.device("cuda")
    model = nn.Linear(4, 3).to(device)
    criterion = nn.CrossEntropyLoss()
    for x, y in loader:
        x = x.to(device)
        loss = criterion(
            model(x),
            y,
        )
""")


def write(tmp_path, text=SCRIPT, name="train.py"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def error(path, line, message, type_="RuntimeError", origin=None):
    return {"type": type_, "message": message, "cpu_origin": origin,
            "frame": {"path": path, "line": line, "function": "<module>"}}


def test_classify_messages():
    assert classify("RuntimeError", MISMATCH) == DEVICE_MISMATCH
    assert classify("AssertionError", "Torch not compiled with CUDA enabled") == NO_CUDA
    assert classify("RuntimeError", "Attempting to deserialize object on a CUDA device but "
                    "torch.cuda.is_available() is False.") == NO_CUDA
    assert classify("TypeError", "can't convert cuda:0 device type tensor to numpy. Use "
                    "Tensor.cpu() to copy the tensor to host memory first.") == NUMPY_ON_DEVICE
    assert classify("ValueError", "shapes do not match") == OTHER
    assert classify("RuntimeError", "Input and hidden tensors are not at the same device, found "
                    "input tensor at cuda:0 and hidden tensor at cpu") == DEVICE_MISMATCH
    assert classify("RuntimeError", "Input type (torch.FloatTensor) and weight type "
                    "(torch.cuda.FloatTensor) should be the same or input should be a MKLDNN "
                    "tensor and weight is a dense tensor") == DEVICE_MISMATCH


def test_mismatch_maps_to_the_finding_on_the_failing_statement(tmp_path):
    path = write(tmp_path)
    # the traceback points at line 10 inside a call that spans lines 9-12
    explanation = explain(error(path, 10, MISMATCH))
    assert [f.code for f in explanation.findings] == ["DEV004"]
    assert explanation.how == "at the failing statement"


def test_no_cuda_maps_to_the_device_the_line_uses(tmp_path):
    path = write(tmp_path)
    explanation = explain(error(path, 5, "Torch not compiled with CUDA enabled", "AssertionError"))
    assert [(f.code, f.line) for f in explanation.findings] == [("DEV001", 4)]


def test_cpu_origin_is_used_when_the_failing_line_has_no_finding(tmp_path):
    path = write(tmp_path)
    other = tmp_path / "model.py"
    other.write_text("import torch\nx = 1\n")
    explanation = explain(error(str(other), 2, MISMATCH, origin={"path": path, "line": 11}))
    assert [f.code for f in explanation.findings] == ["DEV004"]
    assert explanation.how == "where the CPU tensor was created"


def test_unrelated_errors_are_not_explained(tmp_path):
    path = write(tmp_path)
    explanation = explain(error(path, 10, "boom", "ValueError"))
    assert explanation.kind == OTHER and not explanation.findings


def test_missing_file_is_not_an_error(tmp_path):
    explanation = explain(error(str(tmp_path / "gone.py"), 3, MISMATCH))
    assert explanation.findings == []


def test_statement_span_of_a_multiline_call():
    import ast

    tree = ast.parse(SCRIPT)
    assert statement_span(tree, 10) == (9, 12)
    assert statement_span(tree, 8) == (8, 8)


def test_an_error_inside_forward_maps_to_the_call_that_fed_it(tmp_path):
    path = write(tmp_path, textwrap.dedent("""\
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def forward(self, x):
                return self.fc(x)

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Net().to(device)
        for data, target in loader:
            output = model(data)
    """))
    frames = [{"path": path, "line": 6, "function": "forward"},
              {"path": path, "line": 11, "function": "<module>"}]
    err = error(path, 6, MISMATCH)
    err["user_frames"] = frames
    explanation = explain(err)
    assert [(f.code, f.line) for f in explanation.findings] == [("DEV002", 11)]
    assert "forward" not in explanation.how and "<module>" in explanation.how


# One script per kind of the rules of issue 28: the runtime error, where PyTorch raises it, and
# the finding `devlint verify` must name for it.
NEW_KINDS = {
    "DEV015": (textwrap.dedent("""\
        import torch
        import torch.nn as nn
        import torchvision

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torchvision.models.resnet18()
        model.to(device)
        model.fc = nn.Linear(512, 10)
        x = torch.randn(2, 3, 224, 224, device=device)
        out = model(x)
    """), 10, "RuntimeError", "Expected all tensors to be on the same device, but found at "
       "least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method "
       "wrapper_CUDA_addmm)", DEVICE_MISMATCH, 8),
    "DEV016": (textwrap.dedent("""\
        import copy
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        student = nn.Linear(10, 3)
        teacher = copy.deepcopy(student)
        student.to(device)
        inputs = torch.randn(4, 10).to(device)
        target = teacher(inputs)
    """), 10, "RuntimeError", "Expected all tensors to be on the same device, but found at "
       "least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method "
       "wrapper_CUDA_addmm)", DEVICE_MISMATCH, 7),
    "DEV017": (textwrap.dedent("""\
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters())
        ckpt = torch.load("last.pt", map_location="cpu")
        optimizer.load_state_dict(ckpt["optimizer"])
        model.to(device)
        loss = model(torch.ones(1, 4, device=device)).sum()
        loss.backward()
        optimizer.step()
    """), 12, "RuntimeError", "Expected all tensors to be on the same device, but found at "
       "least two devices, cuda:0 and cpu!", DEVICE_MISMATCH, 8),
    "DEV018": (textwrap.dedent("""\
        import torch

        device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model = model.to(device)
    """), 5, "torch.AcceleratorError", "CUDA error: invalid device ordinal\nCUDA kernel errors "
       "might be asynchronously reported at some other API call", INVALID_ORDINAL, 3),
    "DEV019": (textwrap.dedent("""\
        import torch
        import torchmetrics

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        metric = torchmetrics.Accuracy(task="binary")
        preds = torch.rand(8).to(device)
        target = torch.randint(0, 2, (8,)).to(device)
        metric.update(preds, target)
    """), 8, "RuntimeError", "Encountered different devices in metric calculation (see "
       "stacktrace for details). This could be due to the metric class not being on the same "
       "device as input. Instead of `metric=BinaryAccuracy(...)` try to do "
       "`metric=BinaryAccuracy(...).to(device)`", DEVICE_MISMATCH, 5),
    "DEV020": (textwrap.dedent("""\
        import torch
        from transformers import AutoModel, AutoTokenizer

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
        model = AutoModel.from_pretrained("bert-base-uncased").to(device)
        enc = tokenizer(["a sentence"], return_tensors="pt")
        input_ids = enc["input_ids"]
        enc = enc.to(device)
        out = model(input_ids, attention_mask=enc["attention_mask"])
    """), 10, "RuntimeError", "Expected all tensors to be on the same device, but found at "
       "least two devices, cuda:0 and cpu! (when checking argument for argument index in "
       "method wrapper_CUDA__index_select)", DEVICE_MISMATCH, 8),
    "DEV021": (textwrap.dedent("""\
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        scores = torch.randn(4, 4).to(device)
        mask = (scores > 0).type(torch.FloatTensor)
        masked = scores * mask
    """), 6, "RuntimeError", "Expected all tensors to be on the same device, but found at "
       "least two devices, cuda:0 and cpu!", DEVICE_MISMATCH, 5),
    "DEV022": (textwrap.dedent("""\
        import pytest
        import torch


        def test_forward_on_gpu():
            model = torch.nn.Linear(4, 2).cuda()
            assert model(torch.ones(1, 4).cuda()).shape == (1, 2)
    """), 6, "AssertionError", "Torch not compiled with CUDA enabled", NO_CUDA, 6),
}


@pytest.mark.parametrize("code", sorted(NEW_KINDS))
def test_the_new_kinds_map_to_their_rule(tmp_path, code):
    script, line, type_, message, kind, expected_line = NEW_KINDS[code]
    path = write(tmp_path, script, "test_model.py" if code == "DEV022" else "train.py")
    explanation = explain(error(path, line, message, type_))
    assert explanation.kind == kind
    assert [(f.code, f.line) for f in explanation.findings] == [(code, expected_line)], \
        explanation.how
