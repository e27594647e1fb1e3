"""What a project's deployment files declare (`workspace.deploy`): a Cog predictor that its
`cog.yaml` builds with `gpu: true` runs only where a GPU is, and a cached result of the file
follows that declaration when it changes."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from devlint.workspace.deploy import gpu_deployment

PREDICTOR = textwrap.dedent("""\
    import torch
    from cog import BasePredictor


    class Predictor(BasePredictor):
        def setup(self):
            self.model = torch.nn.Linear(4, 4).to("cuda")

        def predict(self, x: float) -> float:
            return self.model(torch.ones(1, 4, device="cuda") * x).sum().item()
    """)


def project(tmp_path, cog: str):
    (tmp_path / ".git").mkdir()
    (tmp_path / "predict.py").write_text(PREDICTOR)
    (tmp_path / "other.py").write_text(PREDICTOR)
    (tmp_path / "cog.yaml").write_text(textwrap.dedent(cog))
    return tmp_path


def test_the_predicted_file_of_a_gpu_build_is_deployed_on_a_gpu(tmp_path) -> None:
    root = project(tmp_path, """\
        build:
          gpu: true  # the image runs on a GPU
          python_version: "3.11"
        predict: "predict.py:Predictor"
        """)
    assert gpu_deployment(str(root / "predict.py")) is True
    assert gpu_deployment(str(root / "other.py")) is False  # not the file `predict:` names


def test_no_gpu_no_predict_or_gpu_outside_build_is_no_declaration(tmp_path) -> None:
    for number, cog in enumerate(('build:\n  gpu: false\npredict: "predict.py:Predictor"\n',
                'build:\n  gpu: true\n',
                'image: x\ntrain:\n  gpu: true\npredict: "predict.py:Predictor"\n')):
        (tmp_path / str(number)).mkdir()
        root = project(tmp_path / str(number), cog)
        assert gpu_deployment(str(root / "predict.py")) is False


def test_a_subfolder_predictor_is_found_from_the_root_cog_yaml(tmp_path) -> None:
    root = project(tmp_path, 'build:\n  gpu: true\npredict: "serve/predict.py:Predictor"\n')
    (root / "serve").mkdir()
    (root / "serve" / "predict.py").write_text(PREDICTOR)
    assert gpu_deployment(str(root / "serve" / "predict.py")) is True


def check(root) -> list:
    done = subprocess.run([sys.executable, "-m", "devlint", "check", "--format", "json", "--exit-zero",
                           "predict.py"], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [(f["line"], f["code"]) for f in json.loads(done.stdout)["findings"]]


def test_a_cached_result_follows_the_declaration(tmp_path) -> None:
    root = project(tmp_path, 'build:\n  gpu: true\npredict: "predict.py:Predictor"\n')
    assert check(root) == []
    assert check(root) == []  # warm
    (root / "cog.yaml").write_text('build:\n  gpu: false\npredict: "predict.py:Predictor"\n')
    assert "DEV001" in {code for _, code in check(root)}
    (root / "cog.yaml").write_text('build:\n  gpu: true\npredict: "predict.py:Predictor"\n')
    assert check(root) == []
