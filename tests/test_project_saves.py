"""How a project writes its modules' state (`workspace.saves`): the fact DEV008 asks of a
checkpoint whose origin the checked file does not show. Read with `ast`, never imported."""
from __future__ import annotations

import textwrap

import pytest

from devlint.workspace.saves import DEVICE, HOST, host_saving, save_kinds


def kinds(source: str) -> frozenset:
    return save_kinds(textwrap.dedent(source).encode())


@pytest.mark.parametrize("source", [
    # BasicSR / KAIR `save_network`
    """
    def save_network(net, path):
        state_dict = net.state_dict()
        for key, param in state_dict.items():
            state_dict[key] = param.cpu()
        torch.save(state_dict, path)
    """,
    # several networks, each converted, saved under their keys
    """
    def save(nets, keys, path):
        save_dict = {}
        for net, key in zip(nets, keys):
            state_dict = net.state_dict()
            for k, p in state_dict.items():
                state_dict[k] = p.cpu()
            save_dict[key] = state_dict
        torch.save(save_dict, path)
    """,
    "torch.save({k: v.cpu() for k, v in model.state_dict().items()}, 'w.pth')\n",
    "torch.save(model.cpu().state_dict(), 'w.pth')\n",
    "torch.save({'params': model.to('cpu').state_dict(), 'epoch': 3}, 'w.pth')\n",
    "torch.save(speaker_embedding.cpu(), 'se.pth')\n",
    # pytorch-AdaIN's train.py: over the keys, each copied with `.to(torch.device('cpu'))`
    """
    state_dict = net.decoder.state_dict()
    for key in state_dict.keys():
        state_dict[key] = state_dict[key].to(torch.device('cpu'))
    torch.save(state_dict, save_dir / 'decoder.pth')
    """,
    # a module built where it is saved, in a file that names no device and moves nothing
    """
    def convert(model, outputname):
        n = nn.Sequential()
        lua_recursive_model(model, n)
        torch.save(n.state_dict(), outputname + '.pth')
    """,
])
def test_state_copied_to_the_cpu_is_host(source: str) -> None:
    assert kinds(source) == {HOST}


@pytest.mark.parametrize("source", [
    "torch.save(model.state_dict(), 'w.pth')\n",
    "torch.save({'epoch': 1, 'model_state_dict': model.state_dict(), 'opt': opt.state_dict()}, p)\n",
    "torch.save(net.module.state_dict(), 'w.pth')\n",
    # built here, but the file moves things: it may have moved this one
    "n = nn.Sequential()\nn.cuda()\ntorch.save(n.state_dict(), 'w.pth')\n",
    # built elsewhere (a helper may have moved it), in a file that moves nothing itself
    "def save(model, path):\n    torch.save(model.state_dict(), path)\n",
])
def test_state_straight_from_a_module_is_device(source: str) -> None:
    assert kinds(source) == {DEVICE}


@pytest.mark.parametrize("source", [
    "torch.save(optimizer.state_dict(), 'opt.pth')\n",
    "torch.save(state, path)\n",  # built elsewhere: unknown
    """
    def save(model, path):
        sd = model.state_dict()
        for k, p in sd.items():
            sd[k] = p  # not copied
        torch.save(sd, path)
    """,
    "torch.save(model.state_dict(\n",  # not Python: nothing known
    "np.save('x.npy', model.state_dict())\n",
])
def test_other_saves_say_nothing(source: str) -> None:
    assert kinds(source) == frozenset()


def test_a_project_saves_on_host_only_where_no_save_writes_from_a_module(tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "base.py").write_text("import torch\n\n\ndef save(m, p):\n"
                                      "    torch.save(m.cpu().state_dict(), p)\n")
    (tmp_path / "demo.py").write_text("import torch\n")
    assert host_saving(str(tmp_path / "demo.py")) is True
    (tmp_path / "train.py").write_text("import torch\n\ntorch.save(model.state_dict(), 'best.pth')\n")
    from devlint.workspace import importers

    importers._WALKS.clear()  # a new file: a new walk (a run walks once)
    assert host_saving(str(tmp_path / "demo.py")) is False


def test_more_to_read_than_the_budget_is_unknown(tmp_path, monkeypatch) -> None:
    """A monorepo's first question must not read without end: past the budget the answer is
    unknown (DEV008 then behaves as without the fact), and a later question reads on."""
    from devlint.workspace import importers, saves

    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "base.py").write_text("import torch\n\n\ndef save(m, p):\n"
                                      "    torch.save(m.cpu().state_dict(), p)\n" + "# pad\n" * 400)
    (tmp_path / "demo.py").write_text("import torch\n")
    importers._WALKS.clear()
    monkeypatch.setattr(saves, "SCAN_BUDGET", 100)
    assert host_saving(str(tmp_path / "demo.py")) is None
    monkeypatch.setattr(saves, "SCAN_BUDGET", 1 << 20)
    assert host_saving(str(tmp_path / "demo.py")) is True
