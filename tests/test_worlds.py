"""What a value holds in each world (a machine with a GPU, one without) where paths meet."""
from __future__ import annotations

from devlint.lint.model.state import State, device_string, join_states
from devlint.lint.model.values import Device, Scalar, Seq


def test_a_list_of_devices_keeps_the_cpu_world_of_the_path_a_machine_without_a_gpu_takes() -> None:
    # mutual-knowledge-distillation's `get_devices` (held-out set 67): `[f'cuda:{i}' for i in
    # range(torch.cuda.device_count())]` under `if use_gpu:`, `['cpu'] * n` in the other arm.
    cuda = Seq("list", None, Scalar(template="cuda:{}"))
    cpu = Seq("list", None, Scalar(text="cpu"))
    joined = join_states([State({"devices": cuda}, True, False), State({"devices": cpu}, False, True)])
    element = joined.env["devices"].element
    assert type(element) is Device
    assert (element.accel, element.cpu) == ("accel", "host")


def test_a_list_the_cpu_world_never_chose_is_left_as_it_was() -> None:
    # both worlds took the same path: nothing to split
    cuda = Seq("list", None, Scalar(template="cuda:{}"))
    joined = join_states([State({"devices": cuda}, True, True), State({"devices": cuda}, True, True)])
    assert joined.env["devices"] is cuda
    assert type(device_string(joined.env["devices"].element)) is Device


def test_a_dict_of_devices_keeps_its_keys_and_items_together() -> None:
    # (a dict display's keys pair with its items: `fn(**spread)` zips them; audiocraft's
    # `transformer.py` in the ecosystem check raised when only the items were dropped)
    cuda = Seq("dict", (Scalar(template="cuda:{}"),), Scalar(template="cuda:{}"), keys=("device",))
    cpu = Seq("dict", (Scalar(text="cpu"),), Scalar(text="cpu"), keys=("device",))
    joined = join_states([State({"kw": cuda}, True, False), State({"kw": cpu}, False, True)])
    value = joined.env["kw"]
    assert (value.keys is None) == (value.items is None)
