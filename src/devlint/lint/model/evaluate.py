"""The evaluator: what an expression holds, as a `Value`, and what it does on the way.

One method per kind of expression. Calls are where most of the knowledge is: torch's API comes
from `torch_api`'s tables, functions and classes of this file are interpreted (see
`interpret.py`), everything else is unknown. Whenever tensors that must share a device meet,
or a tensor moves, or a device is named, the evaluator records an observation.
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import reduce
from operator import eq, ge, gt, le, lt, ne
from typing import Any, Iterator, Optional

import libcst as cst

from devlint.lint.model import conventions as names
from devlint.lint.model import torch_api as api
from devlint.lint.model.indices import index_only_params
from devlint.lint.model.observations import (
    CLOCK, Conversion, DeviceSpec, Event, Load, LossBuilt, Meeting, Save, Side, Transfer, Where, Wrap,
)
from devlint.lint.model.state import (
    ClassInfo, State, device_of_text, flag_and, flag_not, flag_or, state_calls,
)
from devlint.lint.model.values import (
    OPAQUE, PROJECT_MADE, UNKNOWN_FLAG, Array, Device, Flag, Func, Instance, Iterable, Klass, Lazy, Maybe, Method, Module,
    Namespace, Opaque, Optimizer, Partial, Place, ProjectModule, Ref, Scalar, Seq, Tensor, Value, join,
    join_place, unwrap,
    with_place,
)
from devlint.lint.syntax import (dotted, is_none_literal, keyword_arg, last_part, positional_args,
                                 shape_length, string_value, walk)

HOST, DEVICE = Place.HOST, Place.DEVICE
DEVICE_COUNT = Scalar(text="<device count>")
BACKEND = Scalar(text="<process group backend>")
NONE = Scalar(text=None, number=None)
BUILTINS = frozenset(
    {"len", "range", "enumerate", "zip", "iter", "next", "list", "tuple", "dict", "set",
     "sorted", "reversed", "super", "isinstance", "print", "getattr", "setattr", "hasattr",
     "map", "filter", "min", "max", "sum", "float", "int", "str", "bool", "open", "type",
     "abs", "round", "any", "all", "repr", "format", "id", "exit", "quit", "vars", "object",
     "Exception", "RuntimeError", "ValueError", "NotImplementedError", "callable", "frozenset"}
)
ARITHMETIC = frozenset({cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide,
                        cst.Modulo, cst.Power, cst.MatrixMultiply, cst.BitAnd, cst.BitOr,
                        cst.BitXor})


def code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def is_tensor(value: Value) -> bool:
    return type(value) is Tensor


def on_host(value: Value) -> bool:
    """A CPU tensor that may not meet a device tensor (0-dim CPU tensors may)."""
    return type(value) is Tensor and value.place is HOST and not value.scalar


def host_weight(value: Value) -> bool:
    """A loss's class weight on the CPU (a weight is one value per class: never 0-dim, even
    when its rank cannot be read off its factory)."""
    return type(value) is Tensor and value.place is HOST and value.dims != 0


def host_input(value: Value) -> bool:
    """A CPU tensor handed to a model or a loss: those take batches, not 0-dim numbers, so a
    tensor whose rank is unknown counts (`torch.tensor(states)`)."""
    return type(value) is Tensor and value.place is HOST and value.dims != 0


def on_device(value: Value) -> bool:
    return type(value) in (Tensor, Module) and value.place is DEVICE


class Evaluator:
    """Expressions. `Interpreter` (statements, functions, classes) builds on it."""

    # set up by the interpreter
    frame: Any
    obs: Any
    host_dispatch: int  # inside a helper's numpy path (`Interpreter.host_type_test`)
    stand_ins: int  # inside an `__init__` given stand-in arguments (`Interpreter.construct`)
    self_test_nodes: set  # the nodes of a package module's `__main__` block
    made: list  # (id of a call that made a module, when in the run's clock), in the run's order
    func_reads: dict  # id of a function's info -> whether the CPU world named it

    def eval(self, node: cst.BaseExpression, st: State) -> Value:
        method = self._dispatch.get(type(node))
        if method is None:
            return OPAQUE
        return method(self, node, st)

    def value(self, node: cst.BaseExpression, st: State) -> Value:
        return unwrap(self.eval(node, st))

    # --- context of observations ---------------------------------------------------------

    def where(self, st: State) -> Where:
        frame = self.frame
        return Where(
            frame.function, st.accel, st.cpu and st.sure and not self.guessing and not self.requires_cuda,
            tuple(lf.info for lf in frame.loops),
            self.rank_guard > 0 or (frame.function is not None and frame.function.rank_skip),
            self.in_test(), self.expect_raise > 0, frozenset(), self.no_grad > 0,
            # the block's own lines: a library function it calls is the package's API
            self.self_test > 0 and frame.function is None,
            past=st.past, caught=self.catching > 0,
        )

    # --- names and attributes ----------------------------------------------------------------

    def _name(self, node: cst.Name, st: State) -> Value:
        value = self.lookup(node.value, st)
        if type(value) is Device and value.node is not None:
            self.devices_read.add(id(value.node))
            self.devices_unread.discard(id(value.node))
        if type(value) is Func:
            # where the file names its functions: one named only where no machine without a GPU
            # gets (`pool.map(eval_mp, ...)` past `assert use_cuda`) runs only with a GPU
            ident = id(value.info)
            self.func_reads[ident] = self.func_reads.get(ident, False) or st.cpu
        return value

    def lookup(self, name: str, st: State) -> Value:
        found = self.read(st.env, name)
        if found is not None:
            return found
        frame = self.frame
        if frame.function is not None and name in frame.function.locals:
            return Opaque(name)  # a local not bound yet on this path
        if frame.closure is not None and name in frame.closure:
            return frame.closure[name]
        owner = frame.function.owner if frame.function is not None else None
        # A function of another file reads that file's globals.
        found = self.read(owner.module_env if owner is not None and owner is not self else
                          self.module_env, name)
        if found is not None:
            return found
        if name in BUILTINS:
            return Ref(f"builtins.{name}")
        if name in ("True", "False"):
            return Flag(name == "True", name == "True")
        if name == "None":
            return NONE
        if name == "__name__":
            return Scalar(text="__main__")
        return Opaque(name)

    def chose_fallback(self) -> None:
        """The run chose the CPU for a machine without a GPU here; the file's own code did when
        this is not another file's code that the run executes."""
        self.fallback = True
        self.own_fallback = self.own_fallback or self.foreign_depth == 0

    def read(self, env: dict, name: str) -> Optional[Value]:
        """`name` in `env`, a `Lazy` import read now and kept read."""
        found = env.get(name)
        if type(found) is Lazy:
            found = env[name] = self.resolved(found)
        return found

    def _attribute(self, node: cst.Attribute, st: State) -> Value:
        if type(node.value) is cst.Name:
            stored = st.env.get(f"{node.value.value}.{node.attr.value}")
            if stored is not None:
                return stored
        base = self.value(node.value, st)
        return self.attribute(base, node.attr.value, node, st)

    def attribute(self, base: Value, attr: str, node: Any, st: State) -> Value:
        kind = type(base)
        if attr == "is_cuda" and kind in (Opaque, Namespace, Instance):
            # Whatever it is, nothing is on a GPU where there is none: `'cuda' if x.is_cuda
            # else 'cpu'` is a fallback.
            return Flag(None, False, availability=True, of_data=True)
        if kind is Ref:
            constant = api.NUMERIC_CONSTANTS.get(f"{base.qualname}.{attr}")
            if constant is not None:
                return Scalar(number=constant)  # `torch.rand(n) * math.pi`: a number
            # `tt.FloatTensor` of `tt = torch.cuda if cuda else torch`: each world's member
            return Ref(f"{base.qualname}.{attr}", f"{base.cpu}.{attr}" if base.cpu else None)
        if kind is ProjectModule:
            return self.module_member(base.path, attr, Ref(attr))
        if kind is Tensor:
            return self._tensor_attribute(base, attr, node)
        if kind is Module:
            return self._module_attribute(base, attr, node, st)
        if kind is Instance:
            found = base.attr(attr) if not _hook_written(base.cls, attr) else OPAQUE
            if type(found) is Tensor and found.place is HOST and base.ident and not found.field_of:
                found = replace(found, field_of=base.ident)  # `graph.y`: a field of `graph`
            if found is not None:
                return found
            member = base.cls.lookup(attr)
            if type(member) is Func:
                return self._member(member, base, node, st)
            return member if member is not None else Opaque(_spelled(node) or "")
        if kind is Klass:
            member = base.info.lookup(attr)
            if member is None and attr == "apply" and _autograd_function(base.info):
                forward = base.info.lookup("forward")
                if type(forward) is Func:
                    # `Fn.apply(x, ...)` runs `Fn.forward(ctx, x, ...)`, then `Fn.backward`
                    return _Apply(base.info)
            return member if member is not None else Opaque(_spelled(node) or "")
        if kind is Device:
            if attr == "type":
                return base
            return Scalar()
        if kind is Opaque and attr == "device" and type(node) is cst.Attribute and \
                _unknown_data(node.value):
            # `x1.device`, `enc_out[0].device` of data devlint knows nothing of: wherever that
            # data is, unknown (a settings object's or a model's `.device` keeps the convention
            # that it names the device the code chose)
            return Device(None, None, node, spelled=_spelled(node))
        if kind is Namespace and attr in base.always:
            return Flag(True, True)  # `--cuda` with `store_true` and `default=True`: always on
        if kind in (Namespace, Opaque):
            return Opaque(_spelled(node) or "")
        if kind is Seq and attr in ("x", "y", "edge_index", "input_ids", "labels"):
            return base.element
        return OPAQUE

    def _member(self, member: Func, receiver: Value, node: Any, st: State) -> Value:
        if member.info.prop:
            return self.call_function(member, [receiver], {}, node, st)[0]
        if member.info.static:
            return member
        return Method(member, receiver, getattr(node, "value", None))

    def _tensor_attribute(self, tensor: Tensor, attr: str, node: Any) -> Value:
        if attr == "device":
            accel = {HOST: "host", DEVICE: "accel"}.get(tensor.place)
            return Device(accel, None, node, spelled=_spelled(node))
        if attr in api.PRESERVING_ATTRIBUTES or attr in ("values", "indices"):
            # `.values`/`.indices` of `t.max(dim=1)`, `t.topk(k)`, `t.sort()`: tensors where t is
            return derived(tensor, node)
        if attr in api.SCALAR_ATTRIBUTES:
            if attr == "is_cuda":
                return Flag(tensor.place is DEVICE if tensor.place in (HOST, DEVICE) else None, False,
                            availability=True, of_data=True)
            return Scalar()
        if not tensor.plain:
            # `batch.input_ids`, `outputs.logits`: a tensor of the object, where it is. Of an
            # object devlint does not know (`m.width` of a moved detector), it is where the
            # object is, but a tensor only where code uses it as one.
            return replace(tensor, plain=tensor.of_object is False, node=node, discarded=None,
                           member=tensor.of_object)
        return OPAQUE

    def _module_attribute(self, module: Module, attr: str, node: Any, st: State) -> Value:
        found = module.attr(attr) if not _hook_written(module.cls, attr) else OPAQUE
        if found is None and attr == "training" and module.training is not None:
            # `if self.training:` of a module the code set with `.eval()` or `.train()`: the
            # same on every machine
            return Flag(module.training, module.training)
        found = _in_mode(found, module)
        if found is not None:
            if type(found) is Tensor and attr in _applied(module.cls):
                found = replace(found, why="param")  # moved by the class's own `_apply`
            if type(found) is Module and found.moved_at is not None and module.moved_at is None and \
                    module.place is not DEVICE and module.cls is not None and module.cls.node is not None \
                    and id(found.moved_at) in self._nodes_of(module.cls.node):
                # `self.model.cuda()` in the `__init__` of a module nobody moved: the class's
                # own move of its submodule stands (a module's move moves its submodules; its
                # construction does not undo theirs)
                return found
            return _follow(found, module.place, module.moved_at)
        if module.cls is not None:
            member = module.cls.lookup(attr)
            if type(member) is Func:
                return self._member(member, module, node, st)
            if member is not None:
                return member
        if attr in ("weight", "bias") or attr.endswith(("_weight", "_bias")):
            return Tensor(module.place, "param", node, assumed=module.assumed)
        if attr == "module" or attr == "_orig_mod":
            return replace(module, moves_inputs=False)
        if attr == "device":
            accel = {HOST: "host", DEVICE: "accel"}.get(module.place)
            return Device(accel, None, node, spelled=_spelled(node))
        if module.cls is None and module.place is DEVICE and not module.answers_tensor and \
                not module.loss and not module.stateless:
            # `mlm.bert` of a library's model on the device (transformers, torchvision): a
            # submodule or a setting, of unknown kind, where the model is (as for any object of
            # unknown kind that was moved)
            return Tensor(DEVICE, "moved", node, plain=False, device=module.device,
                          of_object=True, member=True, moved_at=module.moved_at)
        return Opaque(_spelled(node) or "")

    # --- literals and displays --------------------------------------------------------------

    def _string(self, node: Any, st: State) -> Value:
        text = string_value(node)
        if text is not None and "LOCAL_RANK" in text:
            self.distributed = True
        if text is not None and "CUDA_VISIBLE_DEVICES" in text:
            self.visible_devices = True
        return Scalar(text=text, template=text, node=node)

    def _concatenated(self, node: cst.ConcatenatedString, st: State) -> Value:
        left, right = self.value(node.left, st), self.value(node.right, st)
        return Scalar(template=_concat(_template(left), _template(right)),
                      per_rank=_per_rank((node.left, left), (node.right, right)))

    def _fstring(self, node: cst.FormattedString, st: State) -> Value:
        parts, values = [], []
        for part in node.parts:
            if type(part) is cst.FormattedStringText:
                parts.append(part.value)
            else:
                self.inert += 1  # a device in a message places nothing
                values.append((part.expression, self.value(part.expression, st)))
                self.inert -= 1
                parts.append("{}")
        template = "".join(parts)
        return Scalar(template=template, text=None if "{}" in template else template, node=node,
                      per_rank=_per_rank(*values))

    def _number(self, node: Any, st: State) -> Value:
        try:
            number = float(node.value.replace("_", ""))
        except ValueError:
            number = None
        return Scalar(number=number)

    def _sequence(self, node: Any, st: State) -> Value:
        kind = {cst.Tuple: "tuple", cst.List: "list", cst.Set: "list"}[type(node)]
        items = []
        for element in node.elements:
            value = self.value(element.value, st)
            if type(element) is cst.StarredElement:
                return Seq(kind, None, _element(value), node=node)
            items.append(value)
        return _seq(kind, _chosen_parts(items), node)

    def _dict(self, node: cst.Dict, st: State) -> Value:
        keys, items = [], []
        for element in node.elements:
            if type(element) is cst.StarredDictElement:
                items.append(_element(self.value(element.value, st)))
                keys = None
                continue
            key = string_value(element.key)
            self.inert += 1  # a device as a key places nothing
            self.eval(element.key, st)
            self.inert -= 1
            value = self.value(element.value, st)
            if key is not None:
                # `{'gpu_train': True, ...}`: a config's switch, edited by hand like `use_cuda = True`
                value = hand_set_switch(key, element.value, value)
            items.append(value)
            if keys is not None:
                keys.append(key)
        element = OPAQUE
        if items:
            element = items[0]
            for other in items[1:]:
                element = join(element, other)
        known = keys is not None and all(k is not None for k in keys)
        return Seq("dict", tuple(items) if known else None, element,
                   tuple(keys) if known else None, node)

    def _comprehension(self, node: Any, st: State) -> Value:
        inner = st.copy()
        clause = node.for_in
        while clause is not None:
            element = self.element_of(self.value(clause.iter, inner), clause.iter)
            self.bind(clause.target, element, inner, None)
            for condition in clause.ifs:
                self.eval(condition.test, inner)
            clause = clause.inner_for_in
        if type(node) is cst.DictComp:
            self.eval(node.key, inner)
            result = Seq("dict", None, self.value(node.value, inner), node=node)
        else:
            result = Seq("list", None, self.value(node.elt, inner), node=node)
        if type(node) is cst.GeneratorExp:
            return Iterable(result.element, node=node)
        return result

    def _lambda(self, node: cst.Lambda, st: State) -> Value:
        return Func(self.function_info(node), closure=dict(st.env) if self.frame.function else None)

    # --- operators ---------------------------------------------------------------------------

    def _binary(self, node: cst.BinaryOperation, st: State) -> Value:
        left, right = self.value(node.left, st), self.value(node.right, st)
        if type(node.operator) not in ARITHMETIC:
            return OPAQUE
        return self.arithmetic(node, node.left, left, node.right, right, st, type(node.operator))

    def arithmetic(self, node: Any, lnode: Any, left: Value, rnode: Any, right: Value,
                   st: State, operator: type) -> Value:
        rank = _per_rank((lnode, left), (rnode, right))
        if type(left) is Scalar and operator is cst.Modulo:
            return Scalar(template=_concat(_template(left), "{}"), per_rank=rank)  # `path % (name, epoch)`
        if operator is cst.Divide and type(left) is Scalar and left.template is not None:
            return Scalar(template=f"{left.template}/{_template(right)}", per_rank=rank)  # pathlib `/`
        if type(left) is Scalar and type(right) is Scalar:
            if operator is cst.Add:
                return Scalar(template=_concat(_template(left), _template(right)), per_rank=rank)
            return Scalar()
        for seq, other in ((left, right), (right, left)):
            if type(seq) is Seq and type(other) in (Scalar, Opaque, Seq) and operator in (cst.Multiply, cst.Add):
                return Seq(seq.kind, None, seq.element, node=node)  # `[1.0] * n`
        if is_tensor(left) and is_tensor(right):
            if self.meet("op", node, [(lnode, left), (rnode, right)], st) and \
                    _deliberate_host([left, right]):
                return MISMATCHED(node)
            return _elementwise(node, left, right)
        for tensor, other in ((left, right), (right, left)):
            # A number, or a value of unknown kind (most often a number: `torch.ones(n) / n`),
            # or a NumPy array, which torch reads as a tensor beside it.
            if is_tensor(tensor) and type(other) in (Scalar, Flag, Opaque, Array):
                return derived(tensor, node)
        if Array in (type(left), type(right)) and {type(left), type(right)} <= {Array, Scalar}:
            # `(high - low) / 2.0`, `(size * p[idx]) ** -beta`: broadcasting keeps every
            # dimension an operand has
            return Array(any(type(v) is Array and v.ranked for v in (left, right)), node)
        return OPAQUE

    def _unary(self, node: cst.UnaryOperation, st: State) -> Value:
        value = self.value(node.expression, st)
        if type(node.operator) is cst.Not:
            return flag_not(self.truth(value))
        if type(value) is Scalar and value.number is not None:
            # `-1` is a number of its own: `N > 0` of a caller's `-1` is false
            if type(node.operator) is cst.Minus:
                return Scalar(number=-value.number)
            return Scalar() if type(node.operator) is cst.BitInvert else value
        return value if type(value) in (Tensor, Scalar, Array) else OPAQUE

    def _boolean(self, node: cst.BooleanOperation, st: State) -> Value:
        """`a and b`, `a or b`: a condition in both worlds, or, for values (`device or
        self.device`), one of the operands."""
        left = self.value(node.left, st)
        # The right operand runs only where the left one lets it: `is_available() and
        # get_device_capability()` asks the GPU nothing on a machine without one.
        runs = self.truth(left)
        stop = False if type(node.operator) is cst.And else True
        right_state = st.copy(accel=st.accel and runs.accel is not stop, cpu=st.cpu and runs.cpu is not stop)
        required = self.requires_cuda
        unknown = runs.cpu is None and self.possible_guard(node.left, left, st)
        self.guessing += unknown  # `use_gpu and x.cuda()`: an unknown left side is a possible guard
        right = self.value(node.right, right_state)
        self.guessing -= unknown
        if not right_state.cpu:
            self.requires_cuda = required
        if type(left) is Flag or type(right) is Flag:
            combine = flag_and if type(node.operator) is cst.And else flag_or
            return combine(self.truth(left), self.truth(right))
        if type(node.operator) is cst.Or and left is NONE:
            return right
        if type(left) is Opaque and type(right) is Opaque:
            return left if left.name else right
        joined = join(left, right)
        return joined if joined is not OPAQUE else self.truth(left) if type(right) is Scalar else joined

    def _comparison(self, node: cst.Comparison, st: State) -> Value:
        self.inert += 1  # a device compared places nothing
        try:
            left = self.value(node.left, st)
            rights = [self.value(target.comparator, st) for target in node.comparisons]
        finally:
            self.inert -= 1
        result: Optional[Flag] = None
        lnode = node.left
        for target, right in zip(node.comparisons, rights):
            flag = self.compare(node, lnode, left, type(target.operator), target.comparator, right, st)
            if result is None:
                result = flag
            elif type(result) is Flag and type(flag) is Flag:
                result = flag_and(result, flag)
            elif type(result) is not Tensor:
                # `lo < x < hi` with a tensor in the chain: Python asks each link's truth, and a
                # tensor's (`lo < t` of one element) is a value devlint does not know
                result = flag if type(flag) is Tensor else UNKNOWN_FLAG
            lnode, left = target.comparator, right
        return result or UNKNOWN_FLAG

    def compare(self, node: Any, lnode: Any, left: Value, operator: type, rnode: Any,
                right: Value, st: State) -> Value:
        elementwise = operator not in (cst.Is, cst.IsNot, cst.In, cst.NotIn)
        if is_tensor(left) and is_tensor(right) and elementwise:
            if self.meet("op", node, [(lnode, left), (rnode, right)], st) and \
                    _deliberate_host([left, right]):
                return MISMATCHED(node)
            return _elementwise(node, left, right, compared=True)
        for tensor, other in ((left, right), (right, left)):
            if elementwise and is_tensor(tensor) and type(other) in (Scalar, Flag, Opaque):
                if tensor.of_object and not tensor.plain:
                    # `masks > predictor.model.mask_threshold`: an attribute of an object of
                    # unknown kind that was moved may be a number (a float class attribute);
                    # compared with one, it proves no tensor
                    return UNKNOWN_FLAG
                return derived(tensor, node)  # `mask == 0`: a mask, where the tensor is
        if operator in (cst.Equal, cst.NotEqual) and {string_value(lnode), string_value(rnode)} == {"__main__", None} \
                and "__name__" in (getattr(lnode, "value", None), getattr(rnode, "value", None)):
            # `if __name__ == "__main__":` runs when the file is the script being checked
            return Flag(operator is cst.Equal, operator is cst.Equal)
        settled = not self.stand_ins and self.settled(lnode) and self.settled(rnode)
        known = _constant_comparison(lnode, left, operator, rnode, right) if settled else None
        if operator in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual) and left == TENSOR_CLASS and \
                (self.settled(lnode) or type(lnode) is cst.Call) and tensor_kinds(rnode) is False:
            # `type(t) is np.ndarray` of a tensor for sure (`bboxes_type = type(bboxes)` of
            # the running function): the NumPy arm is not taken
            known = operator in (cst.IsNot, cst.NotEqual)
        if known is None and operator in (cst.Equal, cst.NotEqual):
            same = self.fixed_comparison(lnode, rnode)
            if same is not None:
                # `if self.gan_type == 'nsgan':` of `self.gan_type = 'lsgan'` fixed in
                # `__init__`: the arm no run takes is no path
                known = same is (operator is cst.Equal)
        if known is not None:
            return Flag(known, known)
        if operator in (cst.Equal, cst.NotEqual) and settled:
            same = _same_text(left, right)
            if same is not None:
                # `name == "auto"` of a parameter given `"auto"`. A string is the accelerator
                # world's: one chosen per world (`"gpu" if torch.cuda.is_available() else
                # "cpu"`) holds that world's arm, so the test is known there only
                known = same is (operator is cst.Equal)
                return Flag(known, None)
        flag = _device_comparison(left, operator, right)
        if flag is None:
            flag = _device_comparison(right, _MIRROR.get(operator, operator), left)
        return flag or UNKNOWN_FLAG

    def fixed_comparison(self, lnode: Any, rnode: Any) -> Optional[bool]:
        """Whether two operands are equal where both are fixed literals and one of them is a
        name or attribute bound to one (`fixed_literal`): a test of a setting the code fixed.
        None otherwise, and for a test about devices (`self.mode == 'gpu'`): a condition that
        may be a guard stays one, so a fixed value here only ever removes an arm that no run
        takes, never makes a CUDA path certain."""
        left, right = self.fixed_literal(lnode), self.fixed_literal(rnode)
        if left is None or right is None or (left[1] and right[1]):
            return None
        for node, (value, _) in ((lnode, left), (rnode, right)):
            words = [value] if isinstance(value, str) else []
            if type(node) is cst.Attribute:
                words.append(node.attr.value)
            elif type(node) is cst.Name:
                words.append(node.value)
            if any(names.DEVICE_WORDS.search(word.lower()) for word in words):
                return None
        return left[0] == right[0]

    def fixed_literal(self, node: Any) -> Optional[tuple]:
        """(value, written here) of an operand whose value is one literal on every path: a
        string or number literal (written here), an attribute `self.x` of the running method
        that the class's `__init__` sets to a literal and no other code of the module assigns,
        or a module-level name bound once, to a literal, that no function rebinds (`global`):
        `Interpreter.fixed_bindings` of the module that defines the running function. Another
        file may still assign either: then the arm this removes was one a run could take, and
        a finding in it is lost, never made."""
        literal = literal_value(node)
        if literal is not None:
            return literal, True
        function = self.frame.function
        owner = function.owner if function is not None and function.owner is not None else self
        if getattr(owner, "module", None) is None:
            return None
        fixed = owner.fixed_bindings()  # (another file's function: its own module's)
        if type(node) is cst.Attribute and type(node.value) is cst.Name and function is not None \
                and function.cls is not None and function.params and \
                node.value.value == function.params[0][0] and not function.static and \
                not function.classmethod:
            value = fixed[1].get((id(function.cls.node), node.attr.value))
            return (value, False) if value is not None else None
        if type(node) is cst.Name and (function is None or node.value not in function.locals):
            value = fixed[0].get(node.value)
            return (value, False) if value is not None else None
        return None

    def settled(self, node: Any) -> bool:
        """An operand whose value here is the one the model holds: a literal, or a local name
        of the running function (a parameter bound by its call). A global or an attribute may
        have been rebound by code the run did not follow (`global used_device` in a setup
        function, `Logger.CURRENT = ...`), so its value at its definition proves nothing."""
        if type(node) is cst.UnaryOperation:
            node = node.expression
        if type(node) in (cst.Integer, cst.Float, cst.SimpleString) or is_none_literal(node):
            return True
        function = self.frame.function
        return type(node) is cst.Name and function is not None and node.value in function.locals

    def _ifexp(self, node: cst.IfExp, st: State) -> Value:
        tested = self.value(node.test, st)
        test = self.truth(tested)
        rank = self.rank_test(node.test)
        self.rank_guard += rank
        self.ifexp_depth += 1
        unknown = test.cpu is None and self.possible_guard(node.test, tested, st)
        self.guessing += unknown  # a condition devlint cannot evaluate is a possible guard
        entry = st.copy(accel=st.accel and test.accel is not False, cpu=st.cpu and test.cpu is not False)
        other = st.copy(accel=st.accel and test.accel is not True, cpu=st.cpu and test.cpu is not True)
        self.narrow(node.test, entry, other)
        body = self.value(node.body, entry)
        orelse = self.value(node.orelse, other)
        self.guessing -= unknown
        self.ifexp_depth -= 1
        self.rank_guard -= rank
        if test.accel is True and test.cpu is False and test.availability and not test.of_data:
            self.chose_fallback()  # `x.cuda() if use_cuda else x`: the CPU takes the other arm
        return _choose(test, body, orelse)

    def narrow(self, test: Any, body: State, orelse: State) -> None:
        """What `test` proves in each arm: `if isinstance(x, (list, tuple)): x = np.asarray(x)`,
        there x is no tensor."""
        for name, when in _narrowings(test):
            arm = body if when else orelse
            if type(unwrap(arm.env.get(name))) is not Module:
                # (a module is no tensor already: `model.module if isinstance(model,
                # nn.DataParallel) else model` keeps the model in both arms)
                arm.env[name] = OPAQUE
        of_class = self.class_test(test, body)
        if of_class is not None:
            name, info = of_class
            model = unwrap(self.lookup(name, body))
            if type(model) is Module and model.cls is None:
                body.env[name] = replace(model, cls=info)
            elif type(model) is Opaque:  # of that class, wherever it is
                body.env[name] = Module(Place.UNKNOWN, None, cls=info)

    def class_test(self, test: Any, st: State) -> Optional[tuple]:
        """(name, class) when `test` proves a model is of a module class of the project:
        `isinstance(model, MultiTaskModule)`, or a call of a function whose code returns that
        test of its parameter (`is_multi_task_module(model)`, maybe `or` the same class under
        a DataParallel wrapper)."""
        if type(test) is not cst.Call or not test.args:
            return None
        if dotted(test.func) == "isinstance" and len(test.args) == 2:
            kind = self.value(test.args[1].value, st)
            subject = test.args[0].value
            if type(subject) is cst.Name and type(kind) is Klass and kind.info.is_module:
                return subject.value, kind.info
            return None
        guard = self.value(test.func, st)
        if type(guard) is not Func or type(guard.info.node) is not cst.FunctionDef:
            return None
        proved = _isinstance_returned(guard.info.node)
        if proved is None:
            return None
        param, spelled = proved
        positional = [p[0] for p in guard.info.params]
        if param not in positional or positional.index(param) >= len(test.args):
            return None
        subject = test.args[positional.index(param)].value
        owner = guard.info.owner if guard.info.owner is not None else self
        kind = unwrap(owner.module_env.get(spelled, OPAQUE))
        if type(subject) is cst.Name and type(kind) is Klass and kind.info.is_module:
            return subject.value, kind.info
        return None

    def _named(self, node: cst.NamedExpr, st: State) -> Value:
        value = self.eval(node.value, st)
        self.bind(node.target, value, st, None)
        return value

    def _subscript(self, node: cst.Subscript, st: State) -> Value:
        base = self.value(node.value, st)
        index = None
        keys = []
        numbers = 0  # indexes that may be integers: each takes a dimension away
        for element in node.slice:
            if type(element.slice) is cst.Index:
                index = self.value(element.slice.value, st)
                keys.append(element.slice.value)
                numbers += _may_be_integer(index, element.slice.value)
            else:
                for part in (element.slice.lower, element.slice.upper, element.slice.step):
                    if part is not None:
                        self.eval(part, st)
                index = "slice"
        if type(base) is Tensor and base.plain and base.dims == 0 and keys and \
                len(keys) == len(node.slice) and all(type(key) is cst.Integer for key in keys):
            # `loss.data[0]` of a proven 0-dim tensor (a loss, a sum): PyTorch before 0.4 gave
            # a Python number there, later ones raise "invalid index of a 0-dim tensor"; no
            # tensor either way (NRI's `mse_train.append(F.mse_loss(...).data[0])`)
            return OPAQUE
        item = self.subscript(node, base, index, keys[0] if len(keys) == 1 else None, st)
        if type(item) is Tensor and type(base) is Tensor and base.plain and numbers:
            return _fewer_dims(item, numbers, complete=numbers == len(node.slice))
        if type(item) is Tensor and item.scalar and type(base) is Tensor and base.plain and \
                not numbers and any(type(e.slice) is cst.Slice for e in node.slice):
            # `a[:, None]`: a slice proves a dimension, so neither `a` nor the view is 0-dim
            return replace(item, scalar=False, dims=None if item.dims == 0 else item.dims)
        return item

    def subscript(self, node: Any, base: Value, index: Any, key_node: Any, st: State) -> Value:
        kind = type(base)
        if kind is Tensor:
            if index is not None and index != "slice" and on_device(index) and host_input(base) \
                    and not (type(index) is Tensor and index.scalar):
                # a 0-dim integer index is read as a number (`t[idx.item()]`), from any device;
                # a tensor indexed by a tensor of indices is no 0-dim number (`alpha[target]`:
                # a 0-dim tensor has no dimension to index), whatever its factory says
                self.meet("index", node, [(node.value, base), (key_node, index)], st,
                          host=host_input)
            if base.member and index == "slice":
                # `vgg.features[:22]` of a moved model of unknown class: a slice is of the kind
                # its base is (a Sequential's, a list's, a tensor's), where the base is
                return replace(base, node=node, discarded=None)
            if base.member:
                return OPAQUE  # an entry of an object's attribute of unknown kind: unknown
            if not base.plain:
                key = string_value(key_node) if key_node is not None else None
                return replace(base, plain=True, node=node, discarded=None,
                               dict_like=base.dict_like or key is not None)
            return derived(base, node)
        if kind is Seq:
            return _item(base, index, key_node)
        if kind is Array:
            # `self.rewards[idx]` with an array of indices, `prio[:size]`: a dimension still
            # (an integer index may take the last one away)
            whole = type(node) is cst.Subscript and len(node.slice) == 1
            return Array(whole and (type(index) is Array and index.ranked or
                                    index == "slice" and base.ranked), node)
        if kind is Module:
            return _layer_of(base, node)  # a layer of a Sequential
        if kind is Instance and base.cls is not None:
            getitem = base.cls.lookup("__getitem__")
            if type(getitem) is Func:
                # `clip, label = test_set[7]`: Python runs the class's own `__getitem__`
                key = index if isinstance(index, Value) else Scalar()
                return self.call_function(getitem, [base, key], {}, node, st)[0]
        if kind is Ref and base.qualname == "os.environ":
            return _environment_setting(string_value(key_node) if key_node is not None else None)
        if kind is Klass or kind is Ref:
            return base  # a generic alias: `List[int]`
        return OPAQUE

    # --- truth ------------------------------------------------------------------------------

    def possible_guard(self, test: Any, value: Value, st: State) -> bool:
        """Whether a condition devlint cannot evaluate may be about the device: then it is a
        possible guard, and what its arms do is not what a machine without a GPU surely does.
        A call devlint does not know (`some_lib.has_gpu()`), a value made by one, or a name
        that speaks of devices (`self.use_gpu`, `cfg.cuda`, `is_npu_available`) may be; a user
        option (`args.resume`), a count, a path test or `x is None` is the same on every machine
        and guards nothing."""
        if not st.cpu:
            return False
        value = unwrap(value)
        bare = test.expression if type(test) is cst.UnaryOperation else test
        if type(value) is Opaque and type(bare) is cst.Name and value.name == bare.value and \
                self.off_by_default(bare.value):
            # `if use_class_weights:` of `def forward(self, x, use_class_weights=False)` run on
            # its own: a switch a caller may turn on, not a path a run surely takes
            return True
        if type(value) is Opaque and type(bare) in (cst.Name, cst.Attribute):
            # `if use_amp:` with `use_amp = lib.has_gpu()`: made by something devlint does not know
            return not value.name or bool(names.DEVICE_WORDS.search(value.name.lower()))
        for sub in walk(test):
            kind = type(sub)
            if kind is cst.Call:
                callee = dotted(sub.func)
                if callee is None or last_part(callee) not in names.SAME_ON_EVERY_MACHINE:
                    return True
            elif kind is cst.Name:
                if names.DEVICE_WORDS.search(sub.value.lower()):
                    return True
            elif kind is cst.Attribute:
                if names.DEVICE_WORDS.search(sub.attr.value.lower()):
                    return True
            elif kind is cst.SimpleString:
                text = string_value(sub)
                if text and names.DEVICE_WORDS.search(text.lower()):
                    return True
        return False

    def off_by_default(self, name: str) -> bool:
        """`name` is a parameter of the running function whose default is `False` (a switch
        that is off unless a caller turns it on)."""
        info = getattr(self.frame, "function", None)
        for param, _, default, _ in getattr(info, "params", ()):
            if param == name:
                return type(default) is Flag and default.accel is False and default.cpu is False
        return False

    def truth(self, value: Value) -> Flag:
        """A condition's value in both worlds."""
        kind = type(value)
        if kind is Flag:
            return value
        if kind is Opaque and value.name:
            choice = names.device_flag(value.name)
            if choice is not None:
                return Flag(choice, not choice)
        if kind is Scalar:
            if value is DEVICE_COUNT or value.text == DEVICE_COUNT.text:
                return Flag(True, False)
            if value.text == "__main__":
                return Flag(True, True)
            if value.number is not None:
                return Flag(value.number != 0, value.number != 0)
        if kind is Device:
            return Flag(None, None)
        if kind is Ref and api.AVAILABILITY.match(value.qualname):
            # `if torch.cuda.is_available:`, never called: a function is always true, so both
            # worlds take the accelerator's arm
            return Flag(True, True)
        return UNKNOWN_FLAG

    # --- meetings ---------------------------------------------------------------------------

    def meet(self, kind: str, node: Any, operands: list, st: State, callee: Optional[str] = None,
             host=None) -> bool:
        """Operands that must share a device: a CPU tensor meets a device one. Returns whether
        one did (the caller then stops the bad value from spreading)."""
        device = next(((n, v) for n, v in operands if on_device(v)), None)
        if device is None:
            return False
        met = False
        host = host or on_host
        for operand_node, value in operands:
            if host(value) and operand_node is not None:
                self.obs.meetings.append(Meeting(kind, node, Side(operand_node, value),
                                                 Side(device[0], device[1]), self.where(st), callee))
                met = True
        return met

    # --- iteration --------------------------------------------------------------------------

    def element_of(self, value: Value, node: Any) -> Value:
        """What each iteration over `value` binds."""
        kind = type(value)
        if kind is Iterable:
            element = value.element
            if value.loader and type(element) is Tensor and element.why == "batch":
                return replace(element, loop=node)
            if value.loader and type(element) is Seq and element.items is not None:
                # fields of a `collate_fn`'s tuple (a tuple of the samples' tensors too)
                return replace(element, items=tuple(_drawn_in(item, node) for item in element.items))
            if value.loader and type(element) is Seq and element.items is None:
                return replace(element, element=_drawn_in(element.element, node))
            return element
        if kind is Seq:
            return value.element
        if kind is Tensor:
            # each row is `t[i]`: 0-dim when `t` is 1-D (`for m in min_idx`), which may meet
            # any device; unknown rank stays silent, as for `t[i]`
            return _fewer_dims(replace(value, plain=True, node=node), 1, complete=True)
        if kind is Module:
            return _layer_of(value, node)  # a ModuleList's layers
        if kind is Opaque and value.name and names.names_loader(value.name) and self.loader_prior:
            return Tensor(HOST, "batch", node, loop=node, plain=False, assumed=True)
        return OPAQUE

    # --- calls ------------------------------------------------------------------------------

    def _call(self, node: cst.Call, st: State) -> Value:
        result = self._call_of(node, st)
        if type(result) is Tensor and _asks_no_torch_output(node):
            # `image_processor.postprocess(x, output_type="pil")`, `tokenizer(...,
            # return_tensors="np")`: PIL images or NumPy arrays, not tensors
            return OPAQUE
        if type(result) is Module and result.ident == id(node):
            # a module made here, at this point of the run: `make_qnet()` called again makes
            # another object with the same identity (DEV017 tells them apart by this)
            self.note_made(id(node))
        return result

    def note_made(self, ident: int) -> None:
        self.made.append((ident, next(CLOCK)))

    def _call_of(self, node: cst.Call, st: State) -> Value:
        func = node.func
        if type(func) is cst.Attribute:
            receiver = self.value(func.value, st)
            if type(receiver) is Ref and f"{receiver.qualname}.{func.attr.value}" in api.CUDA_REQUIRING:
                # `torch.cuda.set_device(torch.device("cuda", 0))`: the call needs a GPU, so
                # the device named in its arguments is no choice of its own.
                self.requires_cuda = True
            inert = func.attr.value in names.MESSAGE_CALLS or type(receiver) is Ref and \
                f"{receiver.qualname}.{func.attr.value}" in api.SELF_FALLBACK_CALLS
            self.inert += inert  # `logger.info(f"on {torch.device('cuda')}")` places nothing
            args, kwargs = self.arguments(node, st)
            self.inert -= inert
            if type(receiver) is ProjectModule:  # `utils.init_distributed_mode(args)`
                callee = self.module_member(receiver.path, func.attr.value, None)
                if callee is not None:
                    return self.call_value(node, callee, args, kwargs, st)
            return self.call_method(node, receiver, func.attr.value, args, kwargs, st)
        callee = self.value(func, st)
        inert = type(func) is cst.Name and func.value in names.MESSAGE_CALLS or \
            type(callee) is Ref and callee.qualname in api.SELF_FALLBACK_CALLS
        self.inert += inert
        args, kwargs = self.arguments(node, st)
        self.inert -= inert
        return self.call_value(node, callee, args, kwargs, st)

    def arguments(self, node: cst.Call, st: State) -> tuple[list, dict]:
        """Positional values (as (node, value)) and keyword values; a `*x` or `**x` argument
        is kept under the key '*' or '**'."""
        args, kwargs = [], {}
        for arg in node.args:
            value = self.value(arg.value, st)
            if arg.keyword is not None:
                # `Trainer(model, use_gpu=True)` in a script: the user's hand-set switch
                value = hand_set_switch(arg.keyword.value, arg.value, value)
                kwargs[arg.keyword.value] = (arg.value, value)
                if arg.keyword.value == "device" and type(value) is Scalar and value.text and \
                        api.CUDA_LITERAL.match(value.text) and not _cuda_namespace(node):
                    self.device_from_text(value, arg.value, "device=", st)
            elif arg.star == "**":
                spread = unwrap(value)
                if type(spread) is Seq and spread.kind == "dict" and spread.keys is not None:
                    # `.to(**self.tpdv)` with `tpdv = dict(dtype=torch.float32, device=device)`:
                    # a dict whose keys are known spreads into keyword arguments
                    for key, item in zip(spread.keys, spread.items):
                        kwargs.setdefault(key, (arg.value, item))
                else:
                    kwargs["**"] = (arg.value, value)
            elif arg.star == "*":
                spread = unwrap(value)
                if type(spread) is Seq and spread.kind in ("tuple", "list") and spread.items is not None \
                        and "*" not in kwargs:
                    # `clip_loss(*model(**batch))` of a model returning `a, b`: the items, in
                    # their places
                    args.extend((arg.value, item) for item in spread.items)
                else:
                    kwargs.setdefault("*", (arg.value, value))
            else:
                args.append((arg.value, value))
        return args, kwargs

    def call_value(self, node: Any, callee: Value, args: list, kwargs: dict, st: State) -> Value:
        kind = type(callee)
        if kind is Ref:
            if callee.cpu is not None and not callee.cpu.startswith("torch.cuda."):
                # `Tensor(...)` of `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`
                return self.call_ref(node, callee.qualname, args, kwargs, st.copy(cpu=False))
            return self.call_ref(node, callee.qualname, args, kwargs, st)
        if kind in (Func, Klass) and not self.notebook and _raises_type_error(callee, node, args, kwargs):
            # `checkpoint(epoch, model, path, use_gpu=...)` of a two-parameter function,
            # `Student(cfg, teacher)` of a one-argument `__init__`: no path goes past it
            self.type_error = True
            return OPAQUE
        if kind is Func:
            return self.call_function(callee, [v for _, v in args], _kw(kwargs), node, st)[0]
        if kind is Method:
            return self.call_method_value(node, callee, args, kwargs, st)
        if kind is _Apply:
            return self.autograd_apply(node, callee.info, args, kwargs, st)
        if kind is Partial:
            merged = {**dict(callee.kwargs), **_kw(kwargs)}
            return self.call_function(callee.func, list(callee.args) + [v for _, v in args], merged,
                                      node, st)[0]
        if kind is Klass:
            return self.construct(node, callee.info, args, kwargs, st)
        if kind is Module or (kind is Tensor and not callee.plain):
            return self.call_module(node, callee, args, kwargs, st)
        if kind is Opaque:
            return self.call_unknown(node, callee, args, kwargs, st)
        if kind is Instance and callee.cls is not None:
            # `early_stopping(loss, model, path)`: an object of a class with `__call__`
            member = callee.cls.lookup("__call__")
            if type(member) is Func:
                return self.call_method_value(node, Method(member, callee, getattr(node, "func", None)),
                                              args, kwargs, st)
        return OPAQUE

    def autograd_apply(self, node: Any, info: Any, args: list, kwargs: dict, st: State) -> Value:
        """`Fn.apply(x, ...)` of a custom autograd Function: `Fn.forward(ctx, x, ...)`, then
        `Fn.backward(ctx, *grads)`, the gradients where forward's outputs are and `ctx` holding
        what forward saved on it (`ctx.save_for_backward(...)`, `ctx.scale = ...`)."""
        ctx_info = self.autograd_contexts.get(id(info))
        if ctx_info is None:
            ctx_info = self.autograd_contexts[id(info)] = ClassInfo(info.node, f"{info.name}.ctx")
        ctx = Instance(ctx_info, (), id(node))
        forward = info.lookup("forward")
        result, _ = self.call_function(forward, [ctx] + [v for _, v in args], _kw(kwargs), node, st)
        saved = self.autograd_saved.pop(ctx.ident, None)
        kept = self.autograd_kept.pop(ctx.ident, {})
        backward = info.lookup("backward")
        if type(backward) is Func:
            outputs = unwrap(result).items if type(unwrap(result)) is Seq else (unwrap(result),)
            grads = [Tensor(o.place, "data", node) if is_tensor(o) else OPAQUE for o in outputs or ()]
            ctx = ctx.with_attr("saved_tensors", saved) if saved is not None else ctx
            for attr, value in kept.items():
                ctx = ctx.with_attr(attr, value)
            self.call_function(backward, [ctx] + grads, {}, node, st)
        return result

    def call_unknown(self, node: Any, callee: Opaque, args: list, kwargs: dict, st: State) -> Value:
        """A callable of unknown origin: a loss by its name, else its result is unknown, except
        that a model handed device tensors (and no CPU ones) answers on the device."""
        operands = _tensor_operands(args, kwargs)
        self.note_handed(args, kwargs)
        if callee.name == PROJECT_MADE.name:
            return PROJECT_MADE  # one of the project's functions: what it made, unknown
        if _returns_pt_tensors(kwargs):
            return Tensor(HOST, "encoding", node, plain=False)  # a tokenizer's BatchEncoding
        if callee.name and not operands and LOSS_CLASS_NAME.match(last_part(callee.name)):
            # `AMSELoss(num_joints, with_bg)` of a class devlint cannot read (a star import
            # through a `sys.path` edit), given no tensor: a loss built, not computed, and it
            # holds no weight of the code's, so `.cuda()` of it moves nothing
            return Module(HOST, node, ident=id(node), loss=True)
        if callee.name and names.names_loss(callee.name):
            if _ctc_shaped(args, kwargs):
                operands = _ctc_operands(args, kwargs)
            return self.loss_call(node, callee.name, None, operands, st)
        if callee.name and names.names_model(callee.name) and \
                not any(type(unwrap(v)) is Device for _, v in kwargs.values()):
            # A model's parameters live on one device: device and CPU inputs cannot both be right,
            # unless the call hands it the device (`model(audio, device=device)`): code devlint
            # cannot read that is told where to work may move its inputs there itself.
            lengths = _length_arguments(args, kwargs)
            self.meet("model", node, [(n, v) for n, v in operands if id(n) not in lengths], st, callee.name)
        devices = [v for _, v in operands if on_device(v)]
        if devices and not any(on_host(v) for _, v in operands):
            return Tensor(DEVICE, "output", node, assumed=True, device=devices[0].device)
        return self.unknown_result(args, kwargs)

    def call_module(self, node: Any, module: Value, args: list, kwargs: dict, st: State) -> Value:
        spelled = _spelled(node.func) if hasattr(node, "func") else None
        operands = _tensor_operands(args, kwargs)
        if type(module) is Module and module.metric:
            # `hit_rate(scores, labels, indexes)`: torchmetrics' `preds` and `target` meet the
            # metric's state; the rest is the metric's own business, where it is
            operands = _tensor_operands(args[:2], {k: v for k, v in kwargs.items()
                                                   if k in ("preds", "target")})
        proven = any(on_device(v) and not v.assumed for _, v in operands)
        if type(module) is Module and module.assumed and proven and not module.loss:
            # A model taking tensors the code moved to the device is on the device: it runs.
            module = replace(module, assumed=False)
            if type(getattr(node, "func", None)) in (cst.Name, cst.Attribute):
                self.store(node.func, module, st)
        # `criterion = CTCLoss().cuda()` of warp-ctc, a class of no library devlint knows,
        # called by a loss's name: a loss, as the same call of an unknown callable is
        named_loss = bool(spelled) and names.names_loss(spelled) and (
            (type(module) is Module and module.cls is None and not module.answers_tensor) or
            (type(module) is Tensor and not module.plain))
        if named_loss or (type(module) is Module and module.loss):
            if getattr(module, "host_lengths", False) or _ctc_shaped(args, kwargs):
                operands = _ctc_operands(args, kwargs)
            return self.loss_call(node, spelled, module if type(module) is Module else None, operands, st)
        # `self.softmax = nn.Softmax()`, `nn.Sequential(nn.ReLU(), nn.MaxPool2d(2))`: a module
        # with no parameter or buffer runs where its input is, wherever the module was "moved"
        empty = type(module) is Module and module.stateless and not module.assumed and \
            module.cls is None
        checks = module.place is DEVICE and not getattr(module, "moves_inputs", False) and \
            not _holds_no_state(module) and not empty
        if type(module) is Module and module.place is HOST and not module.assumed and \
                not module.loss and not module.stateless:
            self.note_host_call(node, module, operands, st)
        if getattr(module, "moves_inputs", False) and module.place is DEVICE:
            # DataParallel & co scatter the inputs to the device before `forward` runs.
            args = [(n, with_place(v, DEVICE)) for n, v in args]
        cls = module.cls if type(module) is Module else None
        forward = cls.lookup("forward") if cls is not None else None
        if type(forward) is not Func and cls is not None:
            # A class of the project with its own `__call__` (a diffusion pipeline, a predictor
            # wrapper): Python runs that, and it decides where its arguments go
            own_call = cls.lookup("__call__")
            if type(own_call) is Func:
                return self.call_method_value(node, Method(own_call, module, getattr(node, "func", None)),
                                              args, kwargs, st)
        # Lengths (`model(x, input_lengths)`) may be what the model wants on the CPU: to a
        # `forward` devlint cannot read, unknown; a `forward` it reads takes lengths the code made
        # as they are, and its code says whether they meet its tensors (a meeting there is
        # reported there). A loader's lengths stay a batch the loop left behind (DEV002).
        lengths = _length_arguments(args, kwargs)
        if type(forward) is Func:
            lengths = frozenset(id(n) for n, v in list(args) + list(kwargs.values())
                                if id(n) in lengths and not (type(v) is Tensor and v.why == "batch"))
            # What is reported at this call is not reported again inside `forward`, which reads
            # a CPU tensor reported here where its fix puts it, on the device: what meets it
            # there meets it after the fix too (a CPU `arange` of the batch's size in `forward`)
            passed = [(n, _as_fixed(v) if checks and (host_input(v) or _holds_host(v)) and id(n) not in lengths
                       else v) for n, v in args]
            named = {k: _as_fixed(v) if checks and (host_input(v) or _holds_host(v)) and id(n) not in lengths
                     else v for k, (n, v) in kwargs.items()}
            result = self.call_function(forward, [module] + [v for _, v in passed], named, node, st)[0]
            host = _host_arguments(forward.info, args, kwargs, index_only_params(forward.info))
            operands = [(n, v) for n, v in operands if not any(n is h for h in host)]
        if checks:
            for operand_node, value in operands:
                if host_input(value) and not _sent_to_host(value) and id(operand_node) not in lengths:
                    self.obs.meetings.append(Meeting(
                        "model", node, Side(operand_node, value), Side(node.func, module),
                        self.where(st), spelled))
        if type(forward) is Func:
            if type(result) is Tensor and result.place is Place.EITHER and _answers_on_device(module, operands):
                result = replace(result, place=DEVICE)
            return result
        if _returns_pt_tensors(kwargs):
            return Tensor(HOST, "encoding", node, plain=False)  # a tokenizer module's output
        # a torch layer answers one tensor (`nn.Linear`), as a tensor-only method proves a
        # model's answer one; a model may answer anything
        proven = getattr(module, "answers_tensor", False)
        place = module.place
        if empty:
            places = {v.place for _, v in operands if type(v) is Tensor}
            place = places.pop() if len(places) == 1 else Place.UNKNOWN
        elif place in (Place.UNKNOWN, Place.EITHER) and _answers_on_device(module, operands):
            place = DEVICE
        elif place is HOST and type(module) is Module and not module.assumed and \
                self.moved_a_module and any(on_device(v) and not v.assumed for _, v in operands):
            # a layer left on the CPU given device tensors where the run moves its model (a
            # layer in a plain list, one added after the move, a copy never moved): that call
            # is the finding, and its fix moves the layer, so what follows reads its answer
            # where it will be, on the device (a run that moves no module at all, only data,
            # leaves its model's place to its author)
            place = DEVICE
        return Tensor(place, "data" if proven else "output", node, plain=proven,
                      device=getattr(module, "device", None),
                      assumed=getattr(module, "assumed", False),
                      moved_at=getattr(module, "moved_at", None))

    def loss_call(self, node: Any, spelled: Optional[str], module: Optional[Module],
                  operands: list, st: State) -> Value:
        devices = [(n, v) for n, v in operands if on_device(v)]
        if devices:
            self.meet("loss", node, operands, st, spelled, host=host_input)
        weight = _follow(module.weight, module.place) if module is not None and module.weight is not None else None
        if weight is not None and devices and host_weight(weight):
            self.obs.meetings.append(Meeting("loss-weight", node, Side(weight.node, weight),
                                             Side(devices[0][0], devices[0][1]), self.where(st), spelled))
        place = DEVICE if devices else HOST if operands and all(on_host(v) for _, v in operands) else Place.UNKNOWN
        return Tensor(place, "output", node, scalar=True, dims=0)

    # --- methods ----------------------------------------------------------------------------

    def call_method(self, node: Any, receiver: Value, name: str, args: list, kwargs: dict,
                    st: State) -> Value:
        kind = type(receiver)
        if kind in (Scalar, Device) and name in _STRING_TESTS and len(args) == 1 and not kwargs:
            # `prefer.startswith("cuda")` of a known string, or of a device string known in a
            # world ("cuda" where a GPU is): known there
            given = unwrap(args[0][1])
            options = [unwrap(i) for i in given.items] if type(given) is Seq and given.items is not None \
                else [given]
            if options and all(type(o) is Scalar and o.text is not None for o in options):
                texts = tuple(o.text for o in options)
                if kind is Scalar:
                    worlds = (receiver.text, receiver.text)
                else:
                    worlds = tuple({"accel": "cuda", "host": "cpu"}.get(w or "") for w in
                                   (receiver.accel, receiver.cpu))
                answers = [None if w is None else getattr(w, name)(texts) for w in worlds]
                if answers != [None, None]:
                    return Flag(answers[0], answers[1])
        if name in ("to", "cuda", "cpu", "type") and kind in (Tensor, Module, Opaque, Namespace):
            return self.transfer(node, receiver, name, args, kwargs, st)
        if name in ("to", "cuda") and kind is Instance and receiver.cls is not None and \
                receiver.cls.lookup(name) is None and not receiver.cls.bases_known():
            # `FCGF(...).cuda()` of the project's network derived from a library's class
            # (MinkowskiEngine's `MinkowskiNetwork`): the base's move, as of a value devlint
            # cannot read; where it names CUDA, a machine without a GPU stops there
            self.transfer(node, OPAQUE, name, args, kwargs, st)
            return receiver
        if kind is Array:
            # `obs.astype(np.float32)`, `frame.copy()`: an array of the same rank; anything
            # else (`w.max()`, `a.sum()`, `a.tolist()`) is no array known to have a dimension
            return Array(receiver.ranked, node) if name in ARRAY_SHAPE_KEEPING else OPAQUE
        if kind is Instance and name == "save_for_backward" and \
                any(c is receiver.cls for c in self.autograd_contexts.values()) and \
                type(node.func.value) is cst.Name:
            # what `backward` reads back from `ctx.saved_tensors`
            items = tuple(v for _, v in args)
            saved = Seq("tuple", items, reduce(join, items) if items else OPAQUE, node=node)
            self.store(node.func.value, receiver.with_attr("saved_tensors", saved), st)
            self.autograd_saved[receiver.ident] = saved  # forward is static: no `self` after it
            return NONE
        if name in api.PREPARE_METHODS and _prepares(receiver, node):
            for _, value in args:
                if type(value) is Module:
                    # `accelerator.prepare(model)` places the module on the device
                    self.obs.events.append(Event("prepare", node, value, self.where(st)))
                    self.moved_a_module = True
            # accelerate's prepared model does not move its inputs (only DDP's wrapper does, on
            # several processes): a loader it did not prepare hands it CPU batches on one GPU
            return self.prepare(args, moves_inputs=not (name == "prepare" and _accelerate(receiver, node)))
        if name in api.UNWRAP_METHODS and args and _prepares(receiver, node):
            # `accelerator.unwrap_model(model)`: the module inside the wrapper, where it is
            unwrapped = args[0][1]
            return replace(unwrapped, moves_inputs=False) if type(unwrapped) is Module else unwrapped
        if name == "save" and _prepares(receiver, node) and len(args) >= 2:
            # `accelerator.save(obj, path)`; Fabric's is `fabric.save(path, state)`.
            fabric = "fabric" in (dotted(node.func.value) or "").lower()
            self.obs.saves.append(Save(node, args[0][1] if fabric else args[1][1],
                                       if_missing=self.filling > 0))
            return NONE
        if name in ("add_module", "register_module") and kind is Tensor and len(args) >= 2:
            self.note_attach(node, receiver, args[1][1], st)
        if name.startswith("register_") and name.endswith("hook"):
            for _, hook in args:
                self.note_hook(hook)
            hook = unwrap(args[0][1]) if args else None
            if name == "register_forward_hook" and kind is Module and receiver.place is DEVICE \
                    and not receiver.assumed and type(hook) is Func:
                # the hook runs whenever the layer does, on the layer's output where the layer
                # is: `np.histogram(output.numpy())` in an activation logger of a moved model
                output = Tensor(DEVICE, "output", node, plain=True)
                self.call_function(hook, [receiver, Seq("tuple", (output,), output), output], {},
                                   node, st)
        if name == "load_state_dict" and kind in (Opaque, Instance, Optimizer):
            self.obs.events.append(Event("state-load", node, receiver, self.where(st),
                                         statement=self.statement))
            if args and type(node.func) is cst.Attribute and names.names_scheduler(dotted(node.func.value) or ""):
                self.holds_no_tensors(args[0][0])
        if kind in (Instance, Module) and _unreadable_member(receiver, name) and \
                type(node.func) is cst.Attribute and type(node.func.value) is cst.Name:
            receiver = self.forget_drawn(node.func.value, receiver, st)
        if name in api.HEAD_RESETS and (kind is Module or kind is Tensor and not receiver.plain) and \
                not (kind is Module and receiver.cls is not None and type(receiver.cls.lookup(name)) is Func):
            # timm's `model.reset_classifier(n)` (a model of a zoo, moved, is an unknown object on
            # the device): a new head, made on the CPU, set on the model. A class of the project
            # with its own `reset_classifier` says what it does (`.to(device=ref.device)`)
            self.note_attach(node, receiver, Module(HOST, node, ident=id(node)), st)
            return NONE
        if kind is Tensor:
            return self.tensor_method(node, receiver, name, args, kwargs, st)
        if kind is Module:
            return self.module_method(node, receiver, name, args, kwargs, st)
        if kind is Seq or kind is Iterable:
            return self.sequence_method(node, receiver, name, args, st)
        if name in api.GATHER_METHODS and args and _prepares(receiver, node):
            return args[0][1]  # `accelerator.gather_for_metrics(x)`: gathered where x is
        if kind is Instance and name in api.TRAINER_PREPARE_METHODS and args and \
                self.trainer_prepares(receiver):
            return _placed_batch(args[0][1], node)
        if kind is Klass and name in api.RESTORING_CONSTRUCTORS and receiver.info.lookup(name) is None \
                and (receiver.info.is_module or name == "from_pretrained"):
            # `DeepSpeech.load_from_checkpoint(path)`, a constructor the class inherits from its
            # framework: a model of this class, on the CPU, built from saved settings. Also a
            # project's pipeline class (`MarigoldPipeline.from_pretrained(ckpt)`), whose own
            # `__call__` says where its inputs go; without one, a pipeline places them itself.
            pipeline = any(_names_pipeline(info.name or "") or
                           any(_names_pipeline(getattr(b, "qualname", "") or "") for b in info.bases)
                           for info in receiver.info.mro())
            own_call = type(receiver.info.lookup("__call__")) is Func
            return Module(HOST, node, cls=receiver.info, ident=id(node), moves_inputs=pipeline and not own_call)
        if name == "from_pretrained" and (kind not in (Ref, Instance, Klass) or
                                          kind is Ref and (_names_pipeline(api.last(receiver.qualname)) or
                                                           _library_model_class(receiver.qualname))):
            # `AutoModel.from_pretrained(...)` of a receiver devlint cannot read, or a library's
            # pipeline (`StableDiffusionPipeline.from_pretrained(...)`), which takes prompts and
            # images and places its inputs itself.
            placed = Place.UNKNOWN if _placed_by_loading(kwargs) else HOST
            owner = receiver.qualname if kind is Ref else dotted(node.func.value) or ""
            return Module(placed, node, ident=id(node), moves_inputs=_names_pipeline(owner))
        if kind in (Ref, Instance, Klass):
            member = self.attribute(receiver, name, node.func, st)
            return self.call_value(node, member, args, kwargs, st)
        if kind is Scalar:
            if name == "format" and receiver.template is not None:
                return Scalar(template=receiver.template.replace("{}", "{}"),
                              per_rank=_per_rank(*args, *kwargs.values()))
            return Scalar()
        if name in ("parse_args", "parse_known_args"):
            return Namespace(node, always=self.always_on_options(node))
        if kind is Device:
            return Scalar()
        if kind is Opaque and receiver.name and names.names_loss(receiver.name) and name == "forward":
            return self.loss_call(node, receiver.name, None, _tensor_operands(args, kwargs), st)
        if _returns_pt_tensors(kwargs):
            return Tensor(HOST, "encoding", node, plain=False)  # `tokenizer.encode_plus(...)`
        return self.unknown_result(args, kwargs)

    def forget_drawn(self, target: cst.Name, receiver: Value, st: State) -> Value:
        """`self._unpack_minibatch()`, a method of a base class devlint cannot read: it may
        have moved the batches the object holds (`for self.mbatch in self.dataloader`), so
        where they are is unknown from here on."""
        attrs = tuple((attr, OPAQUE if _drawn(value) else value) for attr, value in receiver.attrs)
        if attrs == receiver.attrs:
            return receiver
        forgotten = replace(receiver, attrs=attrs)
        self.store(target, forgotten, st)
        return forgotten

    def trainer_prepares(self, receiver: Instance) -> bool:
        """`self._prepare_inputs(...)` of a trainer subclass that does not define it itself."""
        return trainer_class(receiver.cls) and not any(
            m in receiver.cls.namespace for m in api.TRAINER_PREPARE_METHODS)

    def call_method_value(self, node: Any, method: Method, args: list, kwargs: dict, st: State) -> Value:
        result, after = self.call_function(method.func, [method.receiver] + [v for _, v in args],
                                           _kw(kwargs), node, st)
        if after is not None and method.receiver_node is not None:
            self.store(method.receiver_node, after, st)
        return result

    def tensor_method(self, node: Any, tensor: Tensor, name: str, args: list, kwargs: dict,
                      st: State) -> Value:
        if name == "numpy":
            # `.numpy(force=True)` copies a device tensor to the CPU itself (torch 1.13+)
            force = kwargs["force"][1] if "force" in kwargs else None
            forced = force is not None and not (type(force) is Flag and force.accel is False)
            if tensor.place is DEVICE and not self.host_dispatch and not forced:  # (a helper's numpy path)
                self.obs.conversions.append(Conversion(node, node.func.value, tensor, self.where(st)))
            return OPAQUE
        if name in api.HOST_RESULT_METHODS:
            return Scalar()
        if name in api.NEW_METHODS:
            return Tensor(tensor.place, "data", node, device=tensor.device)
        if name == "type_as" and args and is_tensor(args[0][1]):
            return replace(tensor, place=args[0][1].place, node=node, discarded=None)
        if name == "type_as" and args and not _moved_beside(tensor, args[0][0]):
            # `torch.arange(h).type_as(feats[0])`: where the other is, which is unknown (but
            # `w.to(s.device).type_as(s)` stays where it was moved: that is where s is)
            return replace(tensor, place=Place.UNKNOWN, node=node, discarded=None)
        if name == "gather" and tensor.scalar and tensor.dims != 0 and _gathers_by_indices(args, kwargs):
            # `alpha.gather(0, target)`: input and index have the same rank, so an input
            # gathered by a tensor of indices is no 0-dim number
            tensor = replace(tensor, scalar=False)
        if name in api.SAME_DEVICE_METHODS and name not in api.CROSS_DEVICE_METHODS and \
                self.meet("op", node, [(node.func.value, tensor)] + _tensor_operands(args, kwargs), st) \
                and _deliberate_host([tensor] + [v for _, v in _tensor_operands(args, kwargs)]):
            return MISMATCHED(node)
        if name in ("backward",):
            return NONE
        if not tensor.plain and name == "generate" and tensor.place is DEVICE and tensor.why == "moved":
            # `model.generate(input_ids)` of a model of unknown class that the code moved
            self.meet("model", node, _tensor_operands(args, kwargs), st, _spelled(node.func))
        if not tensor.plain and name not in api.PRESERVING_METHODS:
            if name in ("items", "values"):
                return Iterable(Seq("tuple", (Scalar(), replace(tensor, plain=True)), OPAQUE), node=node)
            if name in ("get", "pop"):  # `labels = batch.pop("labels")`
                return replace(tensor, plain=True, node=node, dict_like=True)
            if name == "keys":
                return Iterable(Scalar(), node=node)
            if name in api.SELF_RETURNING_METHODS:
                return replace(tensor, node=node, discarded=None)  # `net.eval()`: the object itself
            if _post_processing(args, kwargs, any_host=True):
                # a method of a moved object devlint cannot read, handed only tensors on the
                # CPU (`regressor.extract_roi(frame, xc, yc, theta, scale)`), or what the code
                # itself brought there (`regressor.denormalize_landmarks(lm.cpu(), affine)`):
                # post-processing where that data is, whose answer's place is unknown
                return OPAQUE
            # (of an attribute of an object of unknown kind, `net.target_assigner.anchors()`:
            # a helper object's answer, of unknown kind too)
            return Tensor(tensor.place, tensor.why, node, tensor.loop, plain=False, assumed=tensor.assumed,
                          of_object=tensor.of_object and tensor.member, member=tensor.member)
        # Tensor methods return tensors where the receiver is, but for the few above.
        full = _full_reduction(name, args, kwargs)
        dims = 0 if full else _method_dims(tensor, node, name)
        scalar = (tensor.scalar and not _never_0dim(name, dims)) or full
        result = derived(tensor, node, scalar=scalar, dims=dims)
        if tensor.why == "output" and (name in api.TENSOR_ONLY_METHODS or "dim" in kwargs):
            # `model(x).softmax(-1)`, `.argmax(dim=-1)`: what the model answered was a tensor,
            # and this is a tensor computed from it, where it is
            return replace(result, why="data", plain=True)
        return result

    def module_method(self, node: Any, module: Module, name: str, args: list, kwargs: dict,
                      st: State) -> Value:
        found = module.attr(name)
        if found is not None:  # `self.fc(x)`: a submodule, called
            return self.call_value(node, _follow(_in_mode(unwrap(found), module), module.place),
                                   args, kwargs, st)
        if module.cls is not None:
            member = module.cls.lookup(name)
            if type(member) is Func and member.info.static:
                return self.call_value(node, member, args, kwargs, st)  # no receiver is passed
            if type(member) is Func:
                if module.place is HOST and not module.assumed and not module.stateless:
                    # `metric.update(preds, target)`: a method of a module on the CPU given
                    # tensors on the device
                    self.note_host_call(node, module, _tensor_operands(args, kwargs), st)
                return self.call_method_value(node, Method(member, module, node.func.value), args, kwargs, st)
        if name in ("append", "insert", "extend") and args:
            # `model.heads.append(nn.Linear(...))`: a ModuleList (Sequential) registers what it
            # is given, where that was made
            added = args[-1][1]
            for part in (added.items or ()) if type(added) is Seq and name == "extend" else (added,):
                self.note_attach(node, module, part, st)
        if name in ("train", "eval"):
            # `model.eval()` sets the mode of the module (and its submodules) in place
            mode = False if name == "eval" else _train_mode(args, kwargs)
            changed = replace(module, training=mode)
            if module.ident and changed != module:
                self.rebind_alias(module.ident, changed, st)
            return changed
        if name in api.SELF_RETURNING_METHODS:
            return module
        if name in api.PARAMETER_METHODS or name in api.NAMED_PARAMETER_METHODS:
            self.obs.events.append(Event("params", node, module, self.where(st)))
        if name in api.PARAMETER_METHODS:
            return Iterable(Tensor(module.place, "param", node, assumed=module.assumed,
                                   owner=module.ident), node=node)
        if name in api.NAMED_PARAMETER_METHODS:
            param = Tensor(module.place, "param", node, owner=module.ident)
            return Iterable(Seq("tuple", (Scalar(), param), param), node=node)
        if name == "state_dict" and not args and not kwargs and (module.cls is None or
                                                                 module.cls.lookup(name) is None):
            # torch's own `state_dict()`: the module's parameters and buffers by name, where the
            # module is (the tensors themselves, detached: an EMA's `mul_` updates the copy)
            return Seq("dict", None, Tensor(module.place, "param", node, assumed=module.assumed,
                                            owner=module.ident), node=node)
        if name == "forward" or name == "__call__":
            return self.call_module(node, module, args, kwargs, st)
        if name in ("register_buffer",) and len(args) >= 2:
            key = string_value(args[0][0])
            value = args[1][1]
            if key is not None and (is_tensor(value) or type(value) is Opaque):
                # A buffer is a tensor (or None) that lives where its module does, also when
                # devlint cannot read what was registered (`register_buffer("scale", scale)`).
                buffer = (replace(value, why="param", attr=None) if is_tensor(value)
                          else Tensor(module.place, "param", node, assumed=module.assumed))
                self.store(node.func.value, module.with_attr(key, buffer), st)
            return NONE
        if name == "register_parameter" and module.cls is not None and type(node) is cst.Call:
            # `self.register_parameter(name=f"{prefix}-{i}", param=p)` for each `p` of a listed
            # layer's `parameters()` (pytorch_RVAE's `Highway`): the class registers what its
            # plain lists hold by hand. A fresh `nn.Parameter(...)` registers nothing of them.
            given = [a.value for a in node.args if a.keyword is None][1:2] + \
                [a.value for a in node.args if a.keyword is not None and a.keyword.value == "param"]
            if given and not (type(given[0]) is cst.Call and
                              (dotted(given[0].func) or "").rsplit(".", 1)[-1] == "Parameter"):
                module.cls.registers_by_hand = True
        if name in ("add_module", "register_module") and len(args) >= 2:
            self.note_attach(node, module, args[1][1], st)
            if module.cls is not None:
                module.cls.registers_by_hand = True
            return NONE
        if name in ("children", "modules"):
            return Iterable(replace(module, cls=None, attrs=()), node=node)
        if name in ("named_children", "named_modules"):
            part = replace(module, cls=None, attrs=())
            return Iterable(Seq("tuple", (Scalar(), part), join(Scalar(), part)), node=node)
        if name == "get_submodule":
            # `model.get_submodule("encoder.fc")`: a part of the model, where the model is
            return replace(module, cls=None, attrs=(), ident=id(node))
        if (name not in api.MODULE_BOOKKEEPING and not module.loss and not module.assumed
                and _tensor_operands(args, kwargs)):
            # `model.generate(ids)`, `self.transformer.decoder(x, memory)`: the module's own
            # code runs on what it is given, where the module is. Not for a model only assumed
            # on the device, by its function's parameters: a method devlint cannot read
            # (`model.parse_batch(batch)`) may be what moves the batch. Nor for a whole batch
            # object handed to a method devlint cannot read (`model.visualize(preds, batch)`):
            # it may take what it needs from it and place that itself.
            if module.cls is None and any(type(v) is Tensor and v.why == "batch" and not v.plain
                                          for _, v in _tensor_operands(args, kwargs)):
                return OPAQUE
            if module.cls is None and any(type(c.lookup(name)) is Func for c in module.classes):
                # `model.set_forward_adaptation(z)` of a model that is one of several classes
                # of the project (chosen by a flag), one of which has that method: which
                # class's code runs is unknown, and it may be what moves its input (`x =
                # x.cuda()` first thing)
                return OPAQUE
            if module.cls is None and _post_processing(args, kwargs, any_host=False):
                # `model.postprocess(out.cpu())` of a library's model devlint cannot read,
                # handed only what the code itself brought to the CPU: post-processing where
                # that data is, whose answer's place is unknown
                return OPAQUE
            return self.call_module(node, replace(module, cls=None, attrs=()), args, kwargs, st)
        return OPAQUE

    def sequence_method(self, node: Any, seq: Value, name: str, args: list, st: State) -> Value:
        element = seq.element
        if name == "items":
            return Iterable(Seq("tuple", (Scalar(), element), join(Scalar(), element)), node=node)
        if name == "values":
            return Iterable(element, node=node)
        if name in ("keys",):
            return Iterable(Scalar(), node=node)
        if name in ("append", "extend", "insert", "add") and args and type(seq) is Seq:
            added = args[-1][1] if name != "extend" else _element(args[-1][1])
            self.store(node.func.value, Seq(seq.kind, None, join(element, added) if seq.items != ()
                                            else added, node=seq.node), st)
            return NONE
        if name in ("pop", "get", "__getitem__"):
            return element
        if name == "copy":
            return seq
        return OPAQUE

    # --- moving things ----------------------------------------------------------------------

    def always_on_options(self, call: Any) -> frozenset:
        """The options of the parser `parser.parse_args()` reads that are on whatever the command
        line says: `add_argument("--cuda", action="store_true", default=True)` of that parser,
        in this module (Attention-OCR's `--cuda`, which no flag turns off, so it guards nothing)."""
        if type(call) is not cst.Call or type(call.func) is not cst.Attribute:
            return frozenset()
        parser = dotted(call.func.value)
        if parser is None:
            return frozenset()
        return frozenset(dest for owner, dest, keywords in self.option_table() if owner == parser
                         and dest and string_value(keywords.get("action")) == "store_true"
                         and type(keywords.get("default")) is cst.Name
                         and keywords["default"].value == "True")

    def option_default(self, node: Any) -> Optional[str]:
        """The string default of the command-line option `node` reads (`args.backend` of
        `add_argument('--backend', default="nccl")` in this module): what a run that does not
        pass the option gets. Like a device switch set by hand, the user's to change; until
        then, what the script runs with. None where no option of that name has one."""
        if type(node) is not cst.Attribute:
            return None
        return _option_defaults(self.option_table()).get(node.attr.value)

    def option_index_default(self, node: Any) -> Optional[int]:
        """The integer default of the command-line option `node` reads (`args.gpu_id` of
        `add_argument('--gpu_id', type=int, default=0)` in this module), or None."""
        if type(node) is not cst.Attribute:
            return None
        defaults = [keywords.get("default") for _, dest, keywords in self.option_table()
                    if dest == node.attr.value]
        return literal_value(defaults[0]) if len(defaults) == 1 and type(defaults[0]) is cst.Integer \
            else None

    def option_table(self) -> tuple:
        """`_option_table` of this module, read once."""
        known = getattr(self, "_options", None)
        if known is None:
            known = self._options = _option_table(getattr(self, "module", None))
        return known

    def raises_without_gpu(self, device: Any, st: State) -> None:
        """A placement on `device` runs here: where that is CUDA in the CPU world, outside any
        condition the run cannot settle, a machine without a GPU raises here. A caller in
        another file stops there (its later CUDA literals are this one's consequences, not
        findings of their own); within this file the rest is still read, where another mistake
        may be a root cause of its own."""
        if type(device) is Device and device.cpu == "accel" and self.where(st).cpu and \
                not self.ifexp_depth and not self.catching:
            self.frame.crashes_on_cpu = True
            if self.frame.crash_here is None:
                self.frame.crash_here = self.spec_node_of(device)

    def spec_node_of(self, device: Device) -> Any:
        """The node of the CUDA literal just reached with `device` (the last spec made with it):
        where a run without a GPU stops (`State.past`)."""
        for spec in reversed(self.obs.devices[-8:]):
            if spec.device is device:
                return spec.node
        return None

    def transfer(self, node: Any, receiver: Value, name: str, args: list, kwargs: dict,
                 st: State) -> Value:
        """`.to(...)`, `.cuda()`, `.cpu()`, `.type(T)`: where the result lives, and whether the
        receiver moves in place (a module does; a tensor returns a copy)."""
        empty = type(receiver) is Module and not receiver.assumed and (
            receiver.stateless or (receiver.loss and receiver.weight is None and receiver.cls is None))
        # `nn.CrossEntropyLoss().cuda()`, `nn.ReLU().to("cuda")`: a module with no tensors moves
        # nothing, so a CUDA literal there touches no GPU on a machine without one
        # A move runs wherever it is written: `print(model(x.cuda()))`, `f"{loss.cuda()}"` and
        # `x.cuda() == y` place `x` as any other line does (only a device named there does not)
        outer, self.inert = self.inert, int(empty)
        try:
            target = self.transfer_target(node, name, args, kwargs, st)
        finally:
            self.inert = outer
        if target is None and name == "type" and type(receiver) is Tensor and args and \
                type(args[0][1]) is Ref and api.legacy_host_type(args[0][1].qualname):
            # `t.type(torch.FloatTensor)`: a CPU tensor type, so a device tensor comes back
            if receiver.place is DEVICE and not receiver.assumed:
                self.obs.events.append(Event("cast", node, receiver, self.where(st), args[0][0]))
                return replace(receiver, place=HOST, why="cast", node=node, device=None,
                               discarded=None, bound=None, moved_at=None)
            return replace(receiver, place=Place.UNKNOWN)
        if target is None:
            if name == "to" and type(receiver) in (Tensor, Module) and _only_dtype(args, kwargs):
                return receiver
            # `.to(something unknown)`: it may be a device.
            if type(receiver) is Module:
                # a module moves in place: wherever it went, it is not where it was (`device`
                # is `f"cuda:{rank}"` on one path and `"cpu"` on another)
                after = replace(receiver, place=Place.UNKNOWN)
                if node is self.discarding:
                    self.store(node.func.value, after, st)
                if receiver.ident:
                    self.rebind_alias(receiver.ident, after, st)
                return after
            return replace(receiver, place=Place.UNKNOWN) if type(receiver) is Tensor else OPAQUE
        place, device = target
        if not empty and ((type(receiver) is Tensor and not receiver.assumed and not receiver.of_object) or
                          (type(receiver) is Module and not receiver.assumed) or type(receiver) is Opaque):
            # `torch.from_numpy(gt).cuda()`, `model.cuda()` in the CPU world; and
            # `feat_dict["train"].cuda()` of a value devlint cannot read, which DEV001 reports
            # as the place such a machine stops
            self.raises_without_gpu(device, st)

        kept = node is not self.discarding
        rnode = node.func.value
        info = self.frame.function
        if info is not None and type(rnode) is cst.Name:
            # it places what it is given, or what it computed from one parameter (`frames =
            # (wav_lens // hop + 1) // 2`, then `frames.to(h.device)`): callers need not move it
            source = rnode.value if any(p[0] == rnode.value for p in info.params) else \
                _computed_from(info).get(rnode.value)
            if source is not None:
                info.host_params.add(source)
        if type(receiver) is Module:
            after: Value = replace(receiver, place=place, moved_at=node if place is DEVICE else None,
                                   device=device, assumed=False)
        elif type(receiver) is Tensor:
            after = replace(receiver, place=place, why="moved" if place is DEVICE else receiver.why
                            if place is receiver.place else "data", node=node, device=device,
                            discarded=None, bound=None, assumed=False,
                            moved_at=node if place is DEVICE else None)
        else:
            after = Tensor(place, "moved", node, plain=False, device=device, of_object=True)
        statement = self.statement if self.statement is not None and len(self.statement.body) == 1 else None
        caller = self.frame.passed_in_loop.get(rnode.value) if type(rnode) is cst.Name else None
        self.obs.transfers.append(Transfer(node, rnode, receiver, after, kept, self.where(st),
                                           statement, caller=caller))
        if type(receiver) is Module and type(after) is Module and receiver.cls is not None:
            self.moved_classes.add(receiver.cls)
        if place is DEVICE and (type(after) is not Tensor or after.of_object):
            self.moved_a_module = True  # a module, or an object of unknown kind (not a tensor)
        if not kept:
            if type(receiver) is Tensor and receiver.plain:
                self.store(rnode, replace(receiver, discarded=node), st)
                return after
            self.store(rnode, after, st)  # in place: a module, a batch object
            if type(receiver) is Module and receiver.ident:
                self.rebind_alias(receiver.ident, after, st)
        elif type(receiver) is Module:
            if type(rnode) in (cst.Name, cst.Attribute):
                # a module moves in place, kept or chained (`self.model.to(device).eval()`)
                self.store(rnode, after, st)
            if receiver.ident:
                self.rebind_alias(receiver.ident, after, st)
        if type(receiver) is Module and type(after) is Module:
            self.move_submodules(receiver, after, st)
        return after

    def move_submodules(self, receiver: Module, after: Module, st: State, depth: int = 2) -> None:
        """`GaussianDiffusion(denoiser).to(device)` moves `denoiser` too: a name still holding
        a submodule of the moved module is on its place now."""
        for _, inner in receiver.attrs:
            if type(inner) is Module and inner.ident and inner.place is not after.place:
                moved = replace(inner, place=after.place, moved_at=after.moved_at,
                                device=after.device, assumed=False)
                self.rebind_alias(inner.ident, moved, st)
                if depth > 1:
                    self.move_submodules(inner, moved, st, depth - 1)

    def transfer_target(self, node: Any, name: str, args: list, kwargs: dict,
                        st: State) -> Optional[tuple]:
        """(place, device) a transfer puts its result on, or None when it moves nothing."""
        if name == "cpu":
            return HOST, Device("host", "host", node)
        if name == "cuda":
            device = self.cuda_device(node, args, st)
            return DEVICE, device
        if name == "type":
            if not args:
                return None
            value = args[0][1]
            if type(value) is Ref and value.qualname.startswith("torch.cuda."):
                if value.cpu is None or value.cpu.startswith("torch.cuda."):
                    self.device_spec(node.func.attr, "type", Device("accel", "accel", node), st, node)
                return DEVICE, Device("accel", "host" if value.cpu else "accel", node)
            if type(value) is Ref and value.qualname.startswith("torch."):
                return None  # a CPU type or a dtype: where it was (a CPU type moves it back)
            return None
        target = kwargs.get("device") or (args[0] if args else None)
        if target is None:
            return None
        found = self.device_target(target[0], target[1], st, "to")
        return _spelled_as(found, target[0])

    def handed_a_device(self) -> None:
        """This file places with a device it was handed: in its own code, or in a method its
        objects run (a base class's `feed_data` placing with `self.device`), not in another
        file's free function it calls (siren's `diff_operators.jacobian` makes its tensor on
        `y.device`, which says nothing of whether `loss_functions.py` ever chooses a device)."""
        function = self.frame.function
        if function is None or function.owner is None or function.owner is self or \
                function.cls is not None:
            self.given_device = True

    def device_target(self, node: Any, value: Value, st: State, kind: str) -> Optional[tuple]:
        """What a value in a device position means: (place, Device), or None for a dtype or
        something unknown."""
        if type(value) is Maybe:
            value = value.value
        vkind = type(value)
        if vkind is Device:
            if value.fallback:
                self.chose_fallback()  # a device chosen with a fallback, placing here
            elif value.accel is None:
                self.handed_a_device()  # `.to(args.device)`: chosen where devlint cannot see
            if value.node is not None and value.accel == "accel":
                self.device_spec_from(value, node, kind, st)
            return {"host": HOST, "accel": DEVICE}.get(value.accel or "", Place.UNKNOWN), value
        if vkind is Scalar and value.number is not None and type(node) is cst.Integer:
            device = Device("accel", "accel", node, int(value.number))
            self.device_spec(node, kind, device, st, fixed=True)
            return DEVICE, device
        if vkind is Scalar:
            device = self.device_from_text(value, node, kind, st)
            if device is None:
                return None
            return device.place, device
        if vkind is Tensor:
            return value.place, value.device
        if vkind is Module:
            return value.place, value.device
        if vkind is Ref and not value.qualname.startswith("torch.cuda."):
            # a dtype (`x.to(torch.float16)`, a NumPy one, a name that says so); `x.to(DEVICE)`
            # of a module devlint cannot read is a move to a place it cannot know (that module
            # may choose "cpu")
            if value.qualname.startswith(("torch.", "numpy.", "np.")) or \
                    names.DTYPE_NAME.search(last_part(value.qualname)):
                return None
            return Place.UNKNOWN, Device(None, None, node, spelled=value.qualname)
        if vkind is Opaque and value.name:
            if names.DTYPE_NAME.search(names.last_part(value.name)):
                return None
            if self.data_of_unknown_place(value.name):
                # moved where the data is: an unknown place (not a dtype, which moves nothing)
                return Place.UNKNOWN, Device(None, None, node, spelled=value.name)
            if names.names_device(value.name) or value.name in ("gpu", "rank", "local_rank", "args.gpu"):
                # a name is no literal: `cuda_device` may hold whatever its code chose there
                self.handed_a_device()
                device = Device("accel", None, node, spelled=value.name)
                return DEVICE, device
        return None

    def data_of_unknown_place(self, name: str) -> bool:
        """`ar.device` where `ar` was only ever picked out of data devlint knows nothing of
        (`ar = atomrefs[p]`, `ar = ar[z]`), or a tensor parameter (annotated so, or an input of
        a module's `forward`) its caller handed unknown: that is where the data is, unknown.
        Settings, models and parameters (`args.device`, `self.device`, `model.device`) and
        tensors the function computed keep the convention that they hold the device."""
        owner, _, attr = name.rpartition(".")
        info = self.frame.function
        if attr != "device" or not owner.isidentifier() or info is None:
            return False
        param = next((p for p in info.params if p[0] == owner), None)
        if param is not None and (
                (param[3] or "").rsplit(".", 1)[-1] in api.TENSOR_ANNOTATIONS or
                (info.name == "forward" and info.cls is not None and info.cls.is_module and
                 param is not info.params[0])):
            # `input.device` of a tensor parameter (`input: Tensor`, an input of a module's
            # forward) handed unknown: where its caller put it
            return True
        if owner not in info.locals or any(p[0] == owner for p in info.params):
            return False
        return _only_picked(info, owner)

    def device_from_text(self, value: Scalar, node: Any, kind: str, st: State) -> Optional[Device]:
        node = value.node if value.node is not None else node
        text = value.text
        if text is None and value.template is not None:
            if value.template.startswith(("cuda:{}", "cuda")):
                device = Device("accel", "accel", node)
                self.device_spec(node, kind, device, st)
                return device
            return None
        device = device_of_text(text, node) if text is not None else None
        if device is not None and device.accel == "accel":
            self.device_spec(node, kind, device, st, fixed=device.index is not None)
        return device

    def cuda_device(self, node: Any, args: list, st: State) -> Device:
        """`.cuda()`, `.cuda(0)`, `.cuda(device)`: the last fails on a CPU device."""
        device = Device("accel", "accel", node)
        fixed = False
        if args:
            value = args[0][1]
            if type(value) is Scalar and value.number is not None and type(args[0][0]) is cst.Integer:
                fixed = True
                device = Device("accel", "accel", node, int(value.number))
            elif type(value) is Device and value.cpu == "host":
                self.device_spec(node.func.attr, ".cuda(device)", value, st, node)
                return Device("accel", "host", node)
            elif type(value) is Device and value.accel == "accel" and value.cpu == "accel" and \
                    value.node is not None and not value.conditional:
                # `.cuda(device)` with `device = torch.device('cuda')`: a use of that literal,
                # as `.to(device)` is; where every use is behind `if cuda_available:`, the
                # literal places nothing a machine without a GPU reaches (SimCTG)
                self.device_spec_from(value, node, "to", st)
                return value
        self.device_spec(node.func.attr, ".cuda", device, st, node)
        if fixed:
            self.device_spec(args[0][0], "index", device, st, fixed=True)
        return device

    def device_spec(self, node: Any, kind: str, device: Device, st: State, call: Any = None,
                    fixed: bool = False, index_node: Any = None, in_conditional: bool = False) -> None:
        if self.inert:
            return  # `t.device != torch.device("cuda")`, a key, a log line: it places nothing
        where = index_node or node
        self.bound_here(where, st)
        reached = self.where(st)
        if id(where) in self.self_test_nodes and not reached.self_test:
            # `Predictor(device=torch.device("cuda", 0))` in a package module's `__main__`
            # block: the self-test's literal, used in the package's own code
            reached = replace(reached, self_test=True)
        self.obs.devices.append(DeviceSpec(where, kind, device, reached, call,
                                           in_conditional or self.ifexp_depth > 0, fixed,
                                           self.devices_in_reach(st)))

    def devices_in_reach(self, st: State) -> tuple:
        """Names bound here on every path to a device with a CPU fallback, `device` first."""
        found = [k for k, v in st.env.items() if type(v) is Device and v.fallback]
        if self.frame.function is not None:
            found += [k for k, v in self.module_env.items()
                      if type(v) is Device and v.fallback and k not in st.env]
        return tuple(sorted(found, key=lambda k: (k != "device", len(k), k)))

    def device_spec_from(self, device: Device, node: Any, kind: str, st: State) -> None:
        """A device value used where a device goes: the CUDA literal that made it is reached."""
        if device.node is not None and device.cpu == "accel":
            self.device_spec(device.node, kind, device, st, in_conditional=device.conditional)
        elif device.node is not None and device.conditional and device.index is not None:
            # the GPU arm of `"cuda:0" if use_cuda else "cpu"` still names one GPU
            self.device_spec(device.node, kind, device, st, fixed=True, in_conditional=True)

    def note_host_call(self, node: Any, module: Module, operands: list, st: State) -> None:
        """A module on the CPU handed tensors the code put on the device."""
        for operand_node, value in operands:
            if on_device(value) and not value.assumed:
                self.obs.events.append(Event("host-call", node, module, self.where(st),
                                             (operand_node, value)))
                return

    def note_attach(self, node: Any, owner: Value, value: Value, st: State) -> None:
        """A module with parameters, made on the CPU, set on a model the code moved. A submodule
        the model already holds, moved in place (`m.encode.cpu()` to save its weights,
        fewshotlocal), is the same object, not one added."""
        value = unwrap(value)
        if type(value) is Module and value.place is HOST and not value.assumed and \
                not value.stateless and not value.loss and owner.place is DEVICE and \
                not holds_nothing(value) and not _holds_submodule(owner, value):
            self.bound_here(node, st)  # a fix moves the new module right there
            self.obs.events.append(Event("attach", node, owner, self.where(st), value,
                                         self.statement))

    def prepare(self, args: list, moves_inputs: bool = True) -> Value:
        """`accelerator.prepare(model, optimizer, loader)`: the same things, placed."""
        prepared = []
        for _, value in args:
            if type(value) is Module:
                value = replace(value, place=DEVICE, moves_inputs=moves_inputs)
            elif type(value) is Iterable:
                value = Iterable(_prepared_batch(value.element), value.loader, value.node)
            elif type(value) is Opaque and value.name and names.names_model(value.name):
                # `model` of a zoo or another file, prepared: on the device for sure
                value = Module(DEVICE, None, moves_inputs=moves_inputs, spelled=value.name)
            elif type(value) is Opaque:
                value = OPAQUE
            prepared.append(value)
        if len(prepared) == 1:
            return prepared[0]
        return Seq("tuple", tuple(prepared), OPAQUE)

    # --- torch and the standard library -----------------------------------------------------

    def call_ref(self, node: Any, qualname: str, args: list, kwargs: dict, st: State) -> Value:
        if api.OPTIMIZER_CLASSES.match(api.last(qualname)) and args:
            self.obs.events.append(Event("optimizer", node, OPAQUE, self.where(st),
                                         statement=self.statement))
            params = args[0][1]
            # `model.parameters()`, or a list of them (`[p for p in model.parameters() if
            # p.requires_grad]`, the trainable ones of a LoRA model)
            owner = params.element if type(params) in (Iterable, Seq) else None
            if type(owner) is Tensor and owner.why == "param" and owner.owner:
                return Optimizer(owner.owner, node)  # whose state follows that module's place
        if qualname in api.HOST_ARGUMENT_POSITIONS:
            self.note_host_arguments(qualname, args, kwargs)
        handler = self._ref_handlers.get(qualname)
        if handler is not None:
            return handler(self, node, args, kwargs, st)
        if api.LIGHTNING_TRAINER.match(qualname) and st.cpu and not args and _runs_on_the_cpu_too(kwargs):
            # `L.Trainer(accelerator="auto")` (the default): the run falls back to the CPU
            # without a GPU, and what its hooks load must load there (DEV008)
            self.chose_fallback()
        if qualname in api.ACCELERATORS:
            # `acc = Accelerator()`: its `prepare` places, whatever its name
            return ACCELERATOR if qualname.startswith("accelerate.") else FABRIC
        if api.AVAILABILITY.match(qualname):
            return Flag(True, False, availability=True)
        if qualname in api.DEVICE_COUNT:
            return DEVICE_COUNT
        if qualname in api.GET_BACKEND:
            return BACKEND
        if qualname in api.PG_INITIALIZED and self.nccl_only():
            return Flag(None, False, availability=True)
        if qualname in api.EXTENSION_BUILDS and builds_cuda(node):
            self.requires_cuda = True
            if st.cpu or (st.accel and self.gpu_only_rest):
                self.cuda_kernels = True  # the file's run compiles CUDA kernels: GPU-only
        if qualname in api.CUDA_REQUIRING:
            self.requires_cuda = True  # the CPU world stops here: this call needs a GPU
        if qualname in api.ENVIRONMENT_READS and args and type(args[0][1]) is Scalar:
            return _environment_setting(args[0][1].text)
        factory = api.factory_name(qualname)
        if factory in api.SAMPLERS and "device" not in kwargs:
            if any(is_tensor(v) for _, v in list(args) + list(kwargs.values())):
                # `multinomial(probs)`, `normal(mean=mean, std=std)`: drawn where its input is
                return self.torch_function(node, qualname, args, kwargs, st)
            if (args and type(args[0][1]) is not Scalar) or factory not in api.NUMBER_SAMPLERS:
                # a sampler draws where its input lives: `multinomial(probs)` of unknown probs
                # is unknown, only `normal(0.0, 1.0, size)` of numbers makes a CPU tensor
                return Tensor(Place.UNKNOWN, "data", node)
        if factory:
            return self.factory(node, factory, args, kwargs, st)
        name = api.last(qualname)
        if qualname.startswith("torch.") and qualname.count(".") == 1 and name in api.LIKE_FACTORIES:
            return self.like_factory(node, args, kwargs, st)
        if qualname.startswith("torch.cuda.") and name in api.LEGACY_CUDA_TYPES:
            device = Device("accel", "accel", node)
            self.device_spec(node.func, "legacy", device, st)
            return Tensor(DEVICE, "data", node, device=device)
        if qualname in api.INPUT_MOVING_WRAPPERS or qualname in api.DDP:
            return self.wrap(node, qualname, args, kwargs, st)
        if qualname in api.TRACING_CALLS and args:
            # `torch.jit.trace(model, dummy)`, `torch.onnx.export(model, (dummy,), path)`: the
            # module runs once on the example inputs
            keyword = api.TRACING_CALLS[qualname]
            given = args[1] if len(args) > 1 else kwargs.get(keyword)
            if given is not None:
                example = unwrap(given[1])
                inputs = [(given[0], item) for item in example.items] \
                    if type(example) is Seq and example.kind == "tuple" and example.items is not None \
                    else [given]
                self.call_value(node, args[0][1], inputs, {}, st)
        if qualname in api.SAME_MODULE_WRAPPERS:
            return args[0][1] if args else OPAQUE
        if qualname in api.PARAMETERS:
            data = args[0][1] if args else kwargs.get("data", (None, OPAQUE))[1]
            place = data.place if is_tensor(data) else HOST
            return Tensor(place, "param", node, scalar=is_tensor(data) and data.scalar)
        if qualname in api.PARAMETER_CONTAINERS:
            given = [a.value for a in positional_args(node)][:1] or [a.value for a in node.args if a.keyword is not None
                                                  and a.keyword.value in ("values", "parameters")]
            function = self.frame.function
            if given and type(given[0]) in (cst.Name, cst.Attribute) and function is not None and \
                    function.cls is not None:
                # `self.param_list = nn.ParameterList(self.param_list)` of a list the class
                # filled with its listed layers' `parameters()` (MIR's `IAF`): it registers
                # what its plain lists hold by hand, as `register_parameter` does
                function.cls.registers_by_hand = True
            return Module(HOST, node, ident=id(node), stateless=False)
        if qualname in api.LAYERS_FROM_TENSORS:
            # `nn.Embedding.from_pretrained(vectors)`: a layer whose weight is the tensor it is
            # given, where that tensor is
            data = unwrap(args[0][1]) if args else unwrap(kwargs.get("embeddings", (None, OPAQUE))[1])
            return Module(data.place if is_tensor(data) else Place.UNKNOWN, node, ident=id(node),
                          answers_tensor=True)
        if api.is_module_class(qualname) or api.MODEL_BUILDERS.match(qualname):
            return self.module_constructor(node, qualname, args, kwargs, st)
        if qualname in api.COPYING_WRAPPERS and "device" not in kwargs and len(args) == 1:
            qualname = "copy.deepcopy"  # `AveragedModel(model)`: a deep copy, where the model is
        if qualname in api.COPIES and args and type(unwrap(args[0][1])) is Module:
            source = unwrap(args[0][1])
            copied = replace(source, node=node, ident=id(node), spelled=None)
            self.bound_here(node, st)  # a fix moves the copy right there
            self.obs.events.append(Event("copy", node, source, self.where(st), copied,
                                         self.statement))
            return copied
        if api.is_metric_class(qualname):
            metric = Module(HOST, node, ident=id(node), metric=True)
            self.bound_here(node, st)  # a fix moves the metric right there
            self.obs.events.append(Event("metric", node, metric, self.where(st)))
            return metric
        if api.is_functional_loss(qualname):
            operands = _ctc_operands(args, kwargs) if qualname.endswith("ctc_loss") else _tensor_operands(args, kwargs)
            return self.loss_call(node, qualname, None, operands, st)
        if qualname in api.LIST_LOADERS:
            return Iterable(Seq("list", None, OPAQUE), loader=True, node=node)
        if qualname in api.LOADERS:
            return self.loader(node, args, kwargs, st)
        if qualname in api.TENSOR_DATASETS:
            items = tuple(v for _, v in args)
            return Iterable(Seq("tuple", items, OPAQUE), node=node)
        if (qualname in api.LOAD or qualname in api.PROGRAM_LOAD) and "map_location" in kwargs:
            # (`torch.jit.load(path, map_location="cuda")` puts the scripted model there)
            target = self.device_target(kwargs["map_location"][0], kwargs["map_location"][1], st,
                                        "map_location=")
            if target is not None:
                # `torch.load(path, map_location=torch.device("cuda"))` raises as `.cuda()` does
                self.raises_without_gpu(target[1], st)
        if qualname in api.LOAD:
            self.bound_here(node, st)
            self.obs.loads.append(Load(node, args[0][1] if args else OPAQUE, self.where(st),
                                       "map_location" in kwargs or len(args) >= 2
                                       or "**" in kwargs or "*" in kwargs,
                                       self.devices_in_reach(st), ranked=self.distributed))
            return OPAQUE
        if qualname in api.SAVE:
            path = args[1][1] if len(args) > 1 else kwargs.get("f", (None, OPAQUE))[1]
            saved = args[0][1] if args else kwargs.get("obj", (None, None))[1]
            self.obs.saves.append(Save(node, path, saved, if_missing=self.filling > 0))
            return NONE
        if qualname in api.PATH_JOINERS:
            return Scalar(template="/".join(_template(v) for _, v in args) if args else None,
                          per_rank=_per_rank(*args))
        if qualname in api.DEFAULT_DEVICE_SETTERS:
            if args and _cuda_tensor_type(args[0][1]):
                # `torch.set_default_tensor_type("torch.cuda.FloatTensor")`: factories make CUDA
                # tensors from here on, and modules their parameters, as under
                # `torch.set_default_device("cuda")`
                self.default_device_set = True
            elif args:
                target = self.device_target(args[0][0], args[0][1], st, "torch.set_default_device")
                # anything else (the CPU type restored, `x.type()` of a CPU tensor) ends it, but
                # only where a GPU may be: the CPU world's arm (`else:
                # set_default_tensor_type("torch.FloatTensor")` of `if args.cuda:`) leaves the
                # setting of the GPU world's arm as it was
                self.default_device_set = (target is not None and target[0] is DEVICE) or \
                    (self.default_device_set and not st.accel)
            return NONE
        if qualname in api.SET_DEVICE:
            if args and type(args[0][0]) is cst.Integer:
                self.device_spec(args[0][0], "set_device", Device("accel", "accel", node,
                                 int(args[0][1].number or 0)), st, fixed=True)
            return NONE
        if qualname in api.PROCESS_GROUP:
            self.process_group(node, args, kwargs, st)
            return NONE
        if qualname in api.NUMPY_CONVERTERS or qualname.startswith(api.HOST_ONLY_PREFIXES + ("numpy.",)):
            self.note_conversions(node, qualname, args, st)
            if qualname.startswith(api.HOST_ONLY_PREFIXES):
                # `TSNE(...)`, `plt.subplots()`: an object of that library (an estimator, a figure
                # and its axes), whose methods (`fit_transform`, `ax.hist`) are the library's too
                # and make host arrays of what they get
                return Ref(qualname)
            array = numpy_array(qualname, node, args, kwargs)
            if array is not None:
                return array
            if qualname in api.NUMPY_CONVERTERS:
                return OPAQUE
        if qualname.startswith("builtins."):
            return self.builtin(node, name, args, kwargs, st)
        if qualname == "torch.autograd.Variable" or qualname == "torch.autograd.variable.Variable":
            return args[0][1] if args else OPAQUE
        if name in api.PASS_THROUGH_ITERATORS and args:
            return self.iterable(args[0][1], node)
        if qualname in api.TREE_MAPS:
            return self.tree_map(node, qualname, args, kwargs, st)
        if qualname in api.COLLECTIVES and self.nccl_only():
            # NCCL carries GPU tensors only: what a collective of an NCCL-only file gets must be
            # on the device, as if it met a device tensor there
            self.meet("op", node, _tensor_operands(args, kwargs) + [(node, Tensor(DEVICE, "data", node))], st)
            # ... and a `.cuda()` that put it there is what NCCL requires, not a literal that a
            # CPU fallback could replace: no process group of this file runs without a GPU
            for _, value in _tensor_operands(args, kwargs):
                if type(value) is Tensor and value.place is DEVICE and value.node is not None:
                    self.required_by_gpu_code(value.node)
        if api.is_torch(qualname):
            return self.torch_function(node, qualname, args, kwargs, st)
        return self.unknown_result(args, kwargs)

    def tree_map(self, node: Any, qualname: str, args: list, kwargs: dict, st: State) -> Value:
        """`tree_map(fn, batch)`: what `fn` gives for the structure, called on it whole (a
        batch's `.to(device)` moves every tensor of it, a slice slices each: devlint's batch
        values stand for their leaves). Without both, unknown."""
        position, tree = api.TREE_MAPS[qualname]
        keyword = ("fn", "func", "function")
        fn = args[position] if len(args) > position else next(
            (kwargs[k] for k in keyword if k in kwargs), None)
        structure = args[tree] if len(args) > tree else next(
            (kwargs[k] for k in ("tree", "data", "pytree") if k in kwargs), None)
        if fn is None or structure is None or type(fn[1]) not in (Func, Partial, Ref, Method):
            return self.unknown_result(args, kwargs)
        return self.call_value(node, fn[1], [structure], {}, st)

    def note_conversions(self, node: Any, qualname: str, args: list, st: State) -> None:
        """Device tensors handed to NumPy, scikit-learn, matplotlib & co, which make host arrays
        of them: a tensor given to a converter, or a list or tuple of tensors given to any of
        them (`np.mean(accs)`, `plt.plot(losses)`: the array is built one element at a time,
        and each device tensor refuses). Other NumPy functions given a tensor itself may call
        its own method (`np.mean(t)` calls `t.mean`), so only its lists count there."""
        if self.host_dispatch:
            return  # a helper's numpy path (see `host_type_test`)
        converts = qualname in api.NUMPY_CONVERTERS or qualname.startswith(api.HOST_ONLY_PREFIXES)
        for operand_node, value in args:
            if converts and _device_tensor_for_sure(value):
                self.obs.conversions.append(Conversion(node, operand_node, value, self.where(st)))
            elif type(value) is Seq and value.kind in ("list", "tuple") and \
                    _device_tensor_for_sure(value.element) and not (
                        qualname.startswith("PIL.") and unwrap(value.element).scalar):
                # (PIL reads coordinates one number at a time with `float()`, which a 0-dim
                # device tensor answers: `draw.line((x0, y0, x1, y1))` of topk indices)
                self.obs.conversions.append(Conversion(node, operand_node, value.element, self.where(st),
                                                       held=True))

    def note_host_arguments(self, qualname: str, args: list, kwargs: dict) -> None:
        """`pack_padded_sequence(x, lengths)`: a parameter handed in as `lengths` must stay on
        the CPU, so a caller passing it a CPU tensor is right (never a meeting, never moved)."""
        position, keyword = api.HOST_ARGUMENT_POSITIONS[qualname]
        found = kwargs.get(keyword) or (args[position] if len(args) > position else None)
        info = self.frame.function
        if found is not None and type(found[0]) is cst.Name and info is not None:
            info.host_params.add(found[0].value)

    def holds_no_tensors(self, loaded: Any) -> None:
        """`scheduler.load_state_dict(torch.load(path))`: an LR scheduler's state is numbers
        (its step, its base rates), so the file read there holds no tensors to restore."""
        for index, load in enumerate(self.obs.loads):
            if load.node is loaded:
                self.obs.loads[index] = replace(load, tensors=False)

    def rank_test(self, test: Any) -> bool:
        """A condition about which process this is or how many there are (`rank == 0`,
        `args.distributed`): what it chooses, it chooses per rank."""
        known = self.rank_tests.get(id(test))
        if known is None:
            from devlint.lint.syntax import identifier_words

            known = any(names.names_rank(word) for word in identifier_words(test))
            self.rank_tests[id(test)] = known
        return known

    def unknown_result(self, args: list, kwargs: dict) -> Value:
        """What a call devlint cannot read gives back. Handed the device or data already on it
        (`MpDeviceLoader(loader, device)`, `corpus.get_iterator(split, device=device)`,
        `NeighborLoader(graph.to(device))`), it may have placed what it makes: no convention
        about the name it is bound to (`train_iter` yields CPU batches) may place it."""
        if any(self.device_like(v) or _holds_device(v)
               for _, v in list(args) + list(kwargs.values())):
            return DEVICE_MADE
        return OPAQUE

    def device_like(self, value: Value) -> bool:
        """A device, a name of one (`args.device`), or a string naming one (`"cpu"`): a call
        handed it (`resolve_device("cpu")`) makes what it says, not the accelerator."""
        return type(value) is Device or (type(value) is Opaque and bool(value.name) and
                                         names.names_device(value.name)) or \
            (type(value) is Scalar and value.text is not None and
             device_of_text(value.text, None) is not None)

    def torch_function(self, node: Any, qualname: str, args: list, kwargs: dict, st: State) -> Value:
        operands = _tensor_operands(args, kwargs, flatten=True)
        name = api.last(qualname)
        if name in api.SAME_DEVICE_FUNCTIONS and self.meet("op", node, operands, st) and \
                _deliberate_host([v for _, v in operands]):
            return MISMATCHED(node)
        if name in api.PYTHON_RESULT_FUNCTIONS:
            return OPAQUE  # `torch.equal(target, ones)`: a bool
        tensors = [v for _, v in operands]
        if qualname == "torch.nn.utils.rnn.pad_packed_sequence" and tensors:
            # (padded, lengths): the padded batch where the packed one is, its lengths a CPU
            # tensor wherever the batch runs (`np.array(lengths)` is fine)
            padded = derived(tensors[0], node, why="data")
            lengths = Tensor(HOST, "data", node, dims=1)
            return Seq("tuple", (padded, lengths), join(padded, lengths))
        if "device" in kwargs and tensors:
            # `torch.sparse_coo_tensor(indices, values, device=d)`: made on `d`, whatever its
            # data's place.
            target = self.device_target(kwargs["device"][0], kwargs["device"][1], st, "device=")
            if target is None:
                return Tensor(Place.UNKNOWN, "data", node)
            return Tensor(target[0], "moved" if target[0] is DEVICE else "data", node, device=target[1])
        if not tensors:
            return OPAQUE
        place = DEVICE if any(on_device(v) for v in tensors) else tensors[0].place
        first = tensors[0]
        if len(tensors) == 1 or all(t.place is first.place for t in tensors):
            keep = next((t for t in tensors if t.why == "attr"), first)
            # (`F.interpolate(mask.type(torch.FloatTensor))` stays the cast's CPU copy)
            made = derived(keep, node, place=place, why=keep.why
                           if keep.why in ("factory", "batch", "attr", "cast") else "data")
            if name in ("stack", "cat", "concat", "concatenate") and args and type(args[0][1]) is Seq:
                # `torch.stack([mean, std])`: one dimension more than its items, which share
                # their shape; `torch.cat` keeps their rank
                ranks = {unwrap(v).dims for v in (args[0][1].items or (args[0][1].element,))
                         if type(unwrap(v)) is Tensor and unwrap(v).dims is not None}
                if len(ranks) == 1:
                    rank = ranks.pop() + (name == "stack")
                    made = replace(made, dims=rank, scalar=made.scalar and rank == 0)
            if len(args) == 1 and _full_reduction(name, args[1:], kwargs):
                # `torch.mean(torch.var(stack, dim=0))`: one number, a 0-dim tensor, which may
                # meet tensors on any device
                made = replace(made, scalar=True, dims=0)
            # `torch.cat(outputs)`, `torch.sigmoid(model(x))`: whatever the model answered, a
            # torch function's result (a join's too) is a tensor
            return made if name in api.TUPLE_RESULT_FUNCTIONS else replace(made, plain=True)
        return Tensor(place, "data", node)

    def factory(self, node: Any, name: str, args: list, kwargs: dict, st: State) -> Value:
        from devlint.lint.syntax import factory_dims, factory_rank, reduced_along_an_axis

        self.bound_here(node, st)
        rank = factory_rank(node)
        if rank == "unknown" and args and type(args[0][1]) is Seq:
            rank = "tensor"
        if rank == "unknown" and args and type(unwrap(args[0][1])) is Array and unwrap(args[0][1]).ranked:
            rank = "tensor"  # `torch.as_tensor(self.rewards[idx])`: an array with a dimension
        if rank == "unknown" and args and args[0][0] is not None and reduced_along_an_axis(
                args[0][0], self.frame.function.node if self.frame.function else self.module):
            rank = "tensor"  # `torch.tensor(neg / np.clip(Y.sum(0), 1, None))`: per column
        scalar = rank != "tensor"  # `torch.tensor(value)` of an unknown value may be 0-dim
        dims = 0 if rank == "scalar" else factory_dims(node)
        device_arg = kwargs.get("device")
        if device_arg is not None:
            target = self.device_target(device_arg[0], device_arg[1], st, "device=")
            if target is None:
                return Tensor(Place.UNKNOWN, "data", node, scalar=scalar, dims=dims)
            # `torch.rand(n, device=x1.device)`: made where x1 is, by design; on the CPU only
            # because x1 is, and x1's own meeting is where that is reported
            why = "moved" if target[0] is DEVICE else \
                "data" if self._tensor_device(device_arg[0], st) else "factory"
            return Tensor(target[0], why, node, scalar=scalar, device=target[1], dims=dims)
        if "out" in kwargs:
            # `torch.zeros(1, n, h, out=inputs.data.new())`: written into `out`, where it is
            out = unwrap(kwargs["out"][1])
            return Tensor(out.place if type(out) is Tensor else Place.UNKNOWN, "data", node,
                          scalar=scalar, dims=dims)
        if name == "from_numpy":
            return Tensor(HOST, "factory", node)
        if name in ("tensor", "as_tensor") and args and is_tensor(args[0][1]):
            return replace(args[0][1], node=node)
        if name in ("tensor", "as_tensor") and args and type(args[0][1]) is Opaque and \
                args[0][1].unseen_arg:
            # `torch.tensor(mean)` of an argument no seen caller passed: a tensor given there
            # (the style-transfer tutorial's `Normalization(mean.to(device), ...)`) is copied
            # where it is, so the copy's place is as unknown as the argument
            return Tensor(Place.UNKNOWN, "data", node, scalar=scalar, dims=dims)
        if self.default_device is not None or self.default_device_set:
            return Tensor(DEVICE, "data", node, scalar=scalar, assumed=True, dims=dims)
        if self.default_set_elsewhere():
            # another file of the project makes factories put their tensors on the GPU, for
            # the whole process (`torch.set_default_tensor_type("torch.cuda.FloatTensor")`
            # in the entry script): where this one is made is unknown
            return Tensor(Place.UNKNOWN, "data", node, scalar=scalar, dims=dims)
        return Tensor(HOST, "factory", node, scalar=scalar, dims=dims)

    def builds_on_device(self) -> bool:
        """Parameters are made on the GPU here: after `torch.set_default_tensor_type(
        torch.cuda.BFloat16Tensor)` or `torch.set_default_device("cuda")`, inside `with
        torch.device("cuda"):`."""
        return self.default_device_set or (
            self.default_device is not None and self.default_device.accel == "accel")

    def _tensor_device(self, node: Any, st: State) -> bool:
        """Whether `node` is the `.device` of a tensor (`x.device`, `batch[0].device`)."""
        return type(node) is cst.Attribute and node.attr.value == "device" and \
            type(node.value) in (cst.Name, cst.Attribute, cst.Subscript) and \
            is_tensor(self.value(node.value, st))

    def like_factory(self, node: Any, args: list, kwargs: dict, st: State) -> Value:
        device_arg = kwargs.get("device")
        if device_arg is not None:
            target = self.device_target(device_arg[0], device_arg[1], st, "device=")
            return Tensor(target[0] if target else Place.UNKNOWN, "data", node)
        if args and is_tensor(args[0][1]):
            source = args[0][1]
            # `torch.ones_like(self.weight)`: a new tensor where the parameter is now, which
            # does not follow the module the way its parameter does (a plain attribute's maker)
            why = "factory" if source.why == "param" else "data"
            if source.why == "encoding" and source.plain:
                # `torch.full_like(prompt_ids, -100)` of ids taken out of an encoding before
                # its move: on the CPU because they are, which is where that is reported
                return replace(source, discarded=None)
            return Tensor(source.place, why, node, scalar=source.scalar)
        return OPAQUE

    def module_constructor(self, node: Any, qualname: str, args: list, kwargs: dict, st: State) -> Value:
        module = Module(HOST, node, ident=id(node),
                        stateless=api.STATELESS_MODULES.match(api.last(qualname)) is not None,
                        answers_tensor=qualname.startswith("torch.nn.") and "return_indices" not in kwargs
                        and api.last(qualname) not in api.NON_TENSOR_ANSWER_LAYERS)
        if "device" in kwargs and not api.is_loss_class(qualname):
            # `nn.Linear(4, 2, device=device)`: its parameters are made there
            target = self.device_target(kwargs["device"][0], kwargs["device"][1], st, "device=")
            module = replace(module, place=target[0] if target else Place.UNKNOWN)
        elif self.builds_on_device() and not api.is_loss_class(qualname):
            module = replace(module, place=DEVICE)
        if api.is_loss_class(qualname):
            weight, weight_node, keyword = None, None, ""
            for key in api.WEIGHT_KEYWORDS:
                if key in kwargs:
                    weight_node, weight = kwargs[key]
                    keyword = key
            if weight is None and args and api.last(qualname) in api.WEIGHT_FIRST_LOSSES:
                weight_node, weight = args[0]
            if is_tensor(weight) and (unwrap(weight).scalar or unwrap(weight).dims == 0) and \
                    api.last(qualname) in api.BROADCAST_WEIGHT_LOSSES:
                weight = None  # maybe 0-dim, which meets the device's logits legally
            if is_tensor(weight):
                buffer = replace(weight, why="weight", node=weight_node)
                # A loss has no parameters: its weight, a buffer, is where it was made (a
                # weight of unknown place, `w.to(labels.device)`, leaves the loss's unknown).
                module = replace(module, place=weight.place)
                self.bound_here(node, st)
                self.obs.losses.append(LossBuilt(node, weight_node, weight, keyword, self.where(st),
                                                 self.devices_in_reach(st)))
                return replace(module, loss=True, weight=buffer)
            return replace(module, loss=True, host_lengths=api.last(qualname) == "CTCLoss")
        if api.last(qualname) == "Sequential" and args and "*" not in kwargs and \
                getattr(unwrap(args[-1][1]), "answers_tensor", False):
            # `nn.Sequential(conv, relu, nn.Sigmoid())` answers what its last layer answers
            module = replace(module, answers_tensor=True)
        if api.last(qualname) in api.MODULE_CONTAINERS:
            for arg_node, _ in list(args) + [kwargs[k] for k in ("*",) if k in kwargs]:
                spelled = dotted(_container_source(arg_node)) or ""
                if spelled.startswith("self."):
                    self.note_wrapped(spelled)
            self.note_items_wrapped(args, st)
            self.note_handed(args, kwargs)
            layers = _layers_given(args)
            if layers is not None:
                module = module.with_attr(LAYERS, layers)
            place = _container_place(list(args) + [kwargs[k] for k in ("*",) if k in kwargs])
            if place is not module.place and not module.assumed:
                module = replace(module, place=place)
        return module

    def note_items_wrapped(self, args: list, st: State) -> None:
        """`nn.Sequential(self.noisy_layers[0], nn.ReLU(), self.noisy_layers[1])`: every item of
        the plain list handed to a registered container one by one, so `.to()` moves them all."""
        indexed: dict = {}
        for arg_node, _ in args:
            if type(arg_node) is cst.Subscript and len(arg_node.slice) == 1 and \
                    type(arg_node.slice[0].slice) is cst.Index and \
                    type(arg_node.slice[0].slice.value) is cst.Integer:
                spelled = dotted(arg_node.value) or ""
                if spelled.startswith("self.") and spelled.count(".") == 1:
                    indexed.setdefault(spelled, set()).add(int(arg_node.slice[0].slice.value.value, 0))
        owner = unwrap(st.env.get("self", OPAQUE)) if indexed else None
        if type(owner) is not Module:
            return
        attrs = dict(owner.attrs)
        for spelled, indexes in indexed.items():
            held = unwrap(attrs.get(spelled.split(".", 1)[1], OPAQUE))
            if type(held) is Seq and held.items is not None and set(range(len(held.items))) <= indexes:
                self.note_wrapped(spelled)

    def wrap(self, node: Any, qualname: str, args: list, kwargs: dict, st: State) -> Value:
        ids = kwargs.get("device_ids") or (args[1] if len(args) > 1 else None)
        for keyword, given in (("device_ids", ids), ("output_device", kwargs.get("output_device"))):
            for literal in _index_literals(given[0]) if given is not None else ():
                self.device_spec(literal, keyword, Device("accel", "accel", node,
                                 int(literal.value)), st, fixed=True)
        inner = args[0][1] if args else kwargs.get("module", (None, OPAQUE))[1]
        if qualname in api.DDP and ids is not None and _names_gpus(ids[0]) and st.cpu:
            self.needs_gpu_module(node)
        self.bound_here(node, st)  # a fix at the wrap may name what is bound there
        self.obs.wraps.append(Wrap(node, qualname, inner, self.where(st), ids is not None))
        if type(inner) is not Module:
            inner = Module(Place.UNKNOWN, node)
        moves = qualname in api.INPUT_MOVING_WRAPPERS or "device_ids" in kwargs
        return replace(inner, moves_inputs=moves or inner.moves_inputs)

    def required_by_gpu_code(self, node: Any) -> None:
        """The device literals inside `node` serve code that runs only with a GPU: the CPU world
        never needs them replaced (DEV001 leaves them alone)."""
        inside = {id(sub) for sub in walk(node)}
        self.gpu_required.update(inside)  # (a caller's frame holds the literal: see `run`)
        self.obs.devices[:] = gpu_only_specs(self.obs.devices, inside)

    def needs_gpu_module(self, node: Any) -> None:
        """`DistributedDataParallel(net.cuda(), device_ids=[rank])` raises for a module on the
        CPU ("device_ids ... only work with ... GPU modules"): the call needs a GPU, so the CPU
        world stops here, and the `.cuda()` inside it is what the call requires, not a literal a
        fallback could replace (the DDP trainer class of a file another one launches with NCCL)."""
        self.requires_cuda = True
        self.obs.devices[:] = gpu_only_specs(self.obs.devices, {id(sub) for sub in walk(node)})

    def loader(self, node: Any, args: list, kwargs: dict, st: State) -> Value:
        """A DataLoader yields CPU batches, unless its dataset already holds device tensors or
        its collate function moves them."""
        dataset = kwargs.get("dataset") or (args[0] if args else None)
        element: Value = Tensor(HOST, "batch", node, plain=False)
        if dataset is not None and type(dataset[1]) is Iterable:
            inner = dataset[1].element
            place = _place_of(inner)
            if place is not HOST and place is not Place.NONE:
                element = Tensor(place, "batch", node, plain=False) if place is DEVICE else OPAQUE
        elif dataset is not None and type(dataset[1]) is Instance:
            element = self.dataset_element(dataset[1], node, st) or element
        elif dataset is not None and (dataset[1] == DEVICE_MADE or _holds_device(dataset[1])):
            # a dataset an unknown call made from device data, or a list of device tensors:
            # its batches may be on the device already
            element = OPAQUE
        collate = kwargs.get("collate_fn")
        if collate is not None and type(collate[1]) is not Scalar:  # `collate_fn=None`: the default
            element = self.collated(node, collate[1], element, st)
        return Iterable(element, loader=True, node=node)

    def collated(self, node: Any, collate: Value, element: Value, st: State) -> Value:
        """What a loader yields through its `collate_fn`. A field is a tensor only where the
        collate function makes one: a list it builds (captions, answer counts) or a number is no
        tensor. A function devlint cannot read leaves the loader's batch as it was."""
        if type(collate) not in (Func, Partial) and not (
                type(collate) is Instance and collate.cls is not None and
                type(collate.cls.lookup("__call__")) is Func):  # `collate_fn=PairCollator(tok)`
            return element
        produced = unwrap(self.call_value(node, collate, [(None, Seq("list", None, element))], {}, st))
        place = _place_of(produced)
        if place is DEVICE:
            return Tensor(DEVICE, "batch", node, plain=False)
        if _encoding(produced):  # a tokenizer's output: batches are encodings, `.to()` and all
            return Tensor(HOST, "encoding", node, plain=False)
        if type(produced) is Seq and produced.kind in ("tuple", "list") and produced.items is not None \
                and any(_encoding(item) for item in produced.items):
            # `return enc, torch.tensor(labels)`: the encoding, and the rest field by field
            return Seq(produced.kind, tuple(_collated_field(item, node) for item in produced.items), OPAQUE)
        fields = type(produced) is Seq and produced.items is not None and (
            produced.kind in ("tuple", "list") or
            # (a dict by its keys where the function moved some of them)
            (produced.kind == "dict" and produced.keys is not None and place is not HOST))
        if place is HOST and not _transposed(produced) and not (
                fields and not all(_holds_tensor(item) for item in produced.items)):
            # (a tuple of CPU tensors and lists it built, ATLOP's `(input_ids, mask, labels,
            # entity_pos, hts)`: its lists are no tensors, field by field below)
            return element
        if fields:
            # (a dict by its keys too: `{"input_ids": ids.to(device), "labels": labels}`, the
            # labels left on the CPU where the inputs were moved)
            return Seq(produced.kind, tuple(_collated_field(item, node) for item in produced.items), OPAQUE,
                       keys=produced.keys)
        if _transposed(produced):  # `tuple(zip(*batch))` of samples whose fields are not known
            return Seq(produced.kind, None, _collated_field(produced.element, node))
        return OPAQUE

    def dataset_element(self, dataset: Instance, node: Any, st: State) -> Optional[Value]:
        getitem = dataset.cls.lookup("__getitem__")
        if type(getitem) is not Func:
            return None
        before = len(self.obs.transfers)
        item = self.call_function(getitem, [dataset, Scalar()], {}, node, st)[0]
        place = _place_of(item)
        if place is DEVICE:
            return Tensor(DEVICE, "batch", node, plain=False)
        moves = any(t.after.place is not HOST for t in self.obs.transfers[before:])
        if place in (Place.EITHER, Place.UNKNOWN) and (type(item) is Tensor or moves):
            # Where its items are is unknown, and its code moved data to a device (Whisper's
            # LibriSpeech notebook: `audio.to(self.device)`, then a library transform).
            return OPAQUE
        return None

    def nccl_only(self) -> bool:
        """Whether every process group this file creates is NCCL's (`init_process_group("nccl")`,
        or `backend=args.dist_backend` after `args.dist_backend = 'nccl'`, the DETR/DeiT/MAE
        `init_distributed_mode`): then `dist.is_initialized()` is never true without a GPU, and
        a helper past `if not is_dist_avail_and_initialized(): return` runs only on one."""
        known = getattr(self, "_nccl_only", None)
        if known is None:
            known = self._nccl_only = _nccl_only(getattr(self, "module", None),
                                                 _option_defaults(self.option_table()))
        return known

    def process_group(self, node: Any, args: list, kwargs: dict, st: State) -> None:
        self.distributed = True
        backend = kwargs.get("backend") or (args[0] if args else None)
        if backend is not None and (type(backend[1]) is Scalar and backend[1].text == "nccl" and
                                    backend[1].node is not None or
                                    self.option_default(backend[0]) == "nccl"):
            if st.cpu or (st.accel and self.gpu_only_rest):
                # the file's CPU path meets NCCL, or stopped for want of CUDA on the way to it
                # (`torch.cuda.set_device(rank)` first, as torchrun scripts do): GPU-only
                self.nccl_required = True
            if st.cpu and not self.ifexp_depth and not self.catching:
                # "ProcessGroupNCCL is only supported with GPUs": a machine without one stops
                # here, so what the run calls past it (FedNova's `optimizer.average()`, in
                # another file) runs only with a GPU
                self.requires_cuda = True

    def iterable(self, value: Value, node: Any) -> Value:
        if type(value) in (Iterable, Seq):
            return value
        element = self.element_of(value, node)
        return Iterable(element, node=node) if element is not OPAQUE else OPAQUE

    def builtin(self, node: Any, name: str, args: list, kwargs: dict, st: State) -> Value:
        first = args[0][1] if args else OPAQUE
        if name == "next":
            return self.element_of(first, node)
        if name == "iter":
            return self.iterable(first, node)
        if name == "enumerate":
            element = self.element_of(first, node)
            return Iterable(Seq("tuple", (Scalar(), element), join(Scalar(), element)),
                            loader=_is_loader(first), node=node)
        if name == "zip" and not args and "*" in kwargs and type(kwargs["*"][1]) is Seq:
            # `zip(*batch)` in a `collate_fn`: the samples' fields, each a tuple of one field
            # of every sample (`images, targets = tuple(zip(*batch))`)
            sample = kwargs["*"][1].element
            field = reduce(join, sample.items) if type(sample) is Seq and sample.items else \
                self.element_of(sample, node)
            return Iterable(Seq("tuple", None, field), node=node)
        if name == "zip":
            elements = tuple(self.element_of(v, node) for _, v in args)
            return Iterable(Seq("tuple", elements, OPAQUE), node=node)
        if name == "range":
            return Iterable(Scalar(), node=node)
        if name == "map" and len(args) == 2 and type(first) is Ref and first.qualname in SEQUENCE_MAKERS:
            # `map(np.array, zip(*batch))`: each field of the sampled transitions, a tuple made
            # an array, has a dimension (one row per sample), so no tensor made of it is 0-dim
            element = self.element_of(args[1][1], node)
            if type(element) is Seq:
                return Iterable(Seq("list", None, element.element), node=node)
        if name in ("list", "tuple", "sorted", "reversed", "set"):
            if type(first) is Seq:
                return first if name != "sorted" else Seq("list", None, first.element)
            element = self.element_of(first, node) if args else OPAQUE
            return Seq("list" if name != "tuple" else "tuple", None, element)
        if name == "dict":
            if not args and kwargs and "*" not in kwargs and "**" not in kwargs:
                # `dict(dtype=torch.float32, device=device)`: a display spelled as a call
                items = tuple(v for _, v in kwargs.values())
                return Seq("dict", items, reduce(join, items), tuple(kwargs), node=node)
            return Seq("dict", None, join(*[v for _, v in kwargs.values()][:1] or [OPAQUE], None)
                       if kwargs else OPAQUE)
        if name in ("exit", "quit"):
            self.exiting = True
            return NONE
        if name == "getattr" and len(args) >= 2 and string_value(args[1][0]) is not None:
            return self.attribute(first, string_value(args[1][0]), args[1][0], st)
        if name == "setattr":
            if len(args) >= 3 and type(first) in (Module, Tensor):
                self.note_attach(node, first, args[2][1], st)  # `setattr(model, "fc", layer)`
            if self.frame.cls is None and type(first) is Module and first.cls is not None:
                first.cls.registers_by_hand = True
            return NONE
        if name == "super":
            return self.super_value(st)
        if name in ("min", "max", "sum") and args and is_tensor(first):
            return first
        if name == "type" and len(args) == 1 and _tensor_for_sure(unwrap(first)):
            return TENSOR_CLASS  # `bboxes_type = type(bboxes)`, then `bboxes_type is np.ndarray`
        if name == "type" and len(args) == 1 and (type(unwrap(first)) is Opaque or (
                type(unwrap(first)) is Tensor and unwrap(first).member)):
            # the class of data devlint knows nothing of (a parameter, an attribute of an
            # object of unknown kind: `data_samples.gt_instances.bboxes`)
            return UNKNOWN_CLASS
        if name == "isinstance":
            # a value proven a tensor answers a test of its class: `isinstance(Trf, np.ndarray)`
            # of a tensor is false, and the arm that converts numpy input is not taken
            if len(args) == 2 and _tensor_for_sure(unwrap(first)):
                tensor = tensor_kinds(args[1][0])
                if tensor is not None:
                    return Flag(tensor, tensor)
            return UNKNOWN_FLAG
        return Scalar()

    # dispatch tables, filled below
    _dispatch: dict = {}
    _ref_handlers: dict = {}

    # hooks the interpreter provides
    def call_function(self, func: Func, args: list, kwargs: dict, node: Any, st: State):
        raise NotImplementedError

    def construct(self, node: Any, info: Any, args: list, kwargs: dict, st: State) -> Value:
        raise NotImplementedError

    def bind(self, target: Any, value: Value, st: State, statement: Any) -> None:
        raise NotImplementedError

    def store(self, target: Any, value: Value, st: State) -> None:
        raise NotImplementedError


def _torch_device(self: Evaluator, node: Any, args: list, kwargs: dict, st: State) -> Value:
    """`torch.device(...)`: a device object from a string, another device, or a choice."""
    if not args:
        return OPAQUE
    first_node, first = args[0]
    if type(first) is Scalar and len(args) >= 2 and type(args[1][1]) is Scalar:
        if first.text == "cuda" and args[1][1].number is not None and type(args[1][0]) is cst.Integer:
            device = Device("accel", "accel", node, int(args[1][1].number))
            self.device_spec(first_node, "torch.device", device, st)
            self.device_spec(args[1][0], "index", device, st, fixed=True)
            return device
    target = self.device_target(first_node, first, st, "torch.device")
    if target is None:
        if type(first) is Opaque:
            return Device("accel", None, node, spelled=first.name or None)
        return Device(None, None, node)
    device = target[1] if target[1] is not None else Device(None, None, node)
    return replace(device, node=device.node or node)


def _environment_setting(key: Optional[str]) -> Value:
    """`os.environ["RWKV_RUN_DEVICE"]`, `os.getenv("USE_CUDA")`: a setting named for the device
    or a device switch reads like `args.device` (`== "cpu"` is a device test); any other
    variable is unknown."""
    if key and (names.names_device(key) or names.device_flag(key) is not None):
        return Opaque(key)
    return OPAQUE


def builds_cuda(call: Any) -> bool:
    """`load(name="wkv", sources=["wkv_op.cpp", "wkv_cuda.cu"])`, `load_inline(...,
    cuda_sources=...)`: an extension compiled with nvcc, for a GPU."""
    for arg in call.args:
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword in ("cuda_sources", "extra_cuda_cflags") and not is_none_literal(arg.value):
            return True
        if keyword == "with_cuda" and type(arg.value) is cst.Name and arg.value.value == "True":
            return True
        if keyword in (None, "sources"):
            for node in walk(arg.value):
                text = string_value(node) if type(node) is cst.SimpleString else \
                    _fstring_tail(node) if type(node) is cst.FormattedString else None
                if text is not None and text.endswith((".cu", ".cuh")):
                    return True
    return False


def _fstring_tail(node: cst.FormattedString) -> Optional[str]:
    """The literal text an f-string ends with (`f"cuda/{name}.cu"` ends with ".cu")."""
    last = node.parts[-1] if node.parts else None
    return last.value if type(last) is cst.FormattedStringText else None


def _partial(self: Evaluator, node: Any, args: list, kwargs: dict, st: State) -> Value:
    if not args or type(args[0][1]) is not Func:
        return OPAQUE
    return Partial(args[0][1], tuple(v for _, v in args[1:]), tuple(sorted(_kw(kwargs).items())))


def _dataclass_field(self: Evaluator, node: Any, args: list, kwargs: dict, st: State) -> Value:
    """`field(default=v)` is `v`; `field(default_factory=f)` is what `f()` makes (a lambda's
    list, `list`'s empty one): what an instance built without that argument holds."""
    if "default" in kwargs:
        return kwargs["default"][1]
    if "default_factory" in kwargs:
        return self.call_value(node, kwargs["default_factory"][1], [], {}, st)
    return OPAQUE


def _dataclass_replace(self: Evaluator, node: Any, args: list, kwargs: dict, st: State) -> Value:
    """`dataclasses.replace(cfg, device=args.device)`: a new object of `cfg`'s class holding
    what `cfg` holds, with the fields given replaced."""
    if not args or type(args[0][1]) is not Instance or "**" in kwargs:
        return OPAQUE
    copied = replace(args[0][1], ident=id(node))
    for name, (_, value) in kwargs.items():
        copied = copied.with_attr(name, value)
    return copied


Evaluator._ref_handlers = {"torch.device": _torch_device, "functools.partial": _partial,
                           "dataclasses.field": _dataclass_field,
                           "dataclasses.replace": _dataclass_replace}


def _returns_pt_tensors(kwargs: dict) -> bool:
    """`return_tensors="pt"`: a tokenizer or processor makes a BatchEncoding of CPU tensors."""
    given = kwargs.get("return_tensors")
    return given is not None and type(given[1]) is Scalar and given[1].text == "pt"


def _only_dtype(args: list, kwargs: dict) -> bool:
    """`.to(torch.float16)`, `.to(dtype=x.dtype)`, `.to(memory_format=...)`: no device moves.
    `.to(**options)` of a dict devlint does not know may name one."""
    if "device" in kwargs or "**" in kwargs:
        return False
    if not args:
        return True
    node, value = args[0]
    if type(value) is Ref:
        return not value.qualname.startswith("torch.cuda.")
    spelled = dotted(node) or ""
    return bool(names.DTYPE_NAME.search(names.last_part(spelled))) or spelled.endswith(".dtype")


def _cuda_namespace(call: cst.Call) -> bool:
    """`torch.cuda.max_memory_allocated(device=...)`: a call that needs CUDA anyway."""
    return (dotted(call.func) or "").startswith("torch.cuda.")


# Sequence lengths and sizes handed to a model: `pack_padded_sequence` and CTC want them on the
# CPU, a padding mask wants them on the device; which, only the model's `forward` says.
LENGTH_NAME = re.compile(r"(^|_)(lens?|lengths?|sizes|seq_lens?)$", re.I)


def _length_arguments(args: list, kwargs: dict) -> frozenset:
    """The argument expressions a call hands a model as lengths (`model(x, input_sizes)`,
    `model(x, lengths=lens)`): to a model whose `forward` devlint cannot read, a CPU tensor there
    may be what it asks for, and unknown stays silent."""
    found = set()
    for key, (node, _) in [(None, a) for a in args] + list(kwargs.items()):
        name = key if isinstance(key, str) and key not in ("*", "**") else (
            dotted(node) or "").rsplit(".", 1)[-1]
        if name and LENGTH_NAME.search(name):
            found.add(id(node))
    return frozenset(found)


def _holds_no_state(module: Value) -> bool:
    """A module of the project's class (a loss of its own, `CosineEmbeddingLoss(margin=0.)`) whose
    objects hold numbers and flags only: no layer, parameter, buffer or tensor, and no base but
    `nn.Module` and the project's. No tensor of its is on the device, so a tensor handed to it
    meets only what its `forward` (which devlint reads) puts it next to, reported there."""
    if type(module) is not Module or module.cls is None or not module.cls.is_module or \
            type(module.cls.lookup("forward")) is not Func:
        return False
    for info in module.cls.mro():
        if any(type(base) is not Klass and (type(base) is not Ref or base.qualname not in api.MODULE_BASES)
               for base in info.bases) or state_calls(info):
            return False
    return all(type(value) in (Scalar, Flag) for _, value in module.attrs)


def _holds_host(value: Value) -> bool:
    """A tuple of the samples' CPU tensors (detection targets): reported at the call."""
    return type(value) is Seq and type(value.element) is Tensor and value.element.held and \
        value.element.place is HOST


def _sent_to_host(value: Tensor) -> bool:
    """A tensor the code itself sent to the CPU (`lengths = lengths.cpu().int()`, then
    `self.conv(x, seq_lens(lengths))`): handed to a module, it is where its author put it, a
    host argument (lengths, sizes), not a batch left behind."""
    device = value.device
    return device is not None and device.accel == "host" and device.cpu == "host" and \
        type(device.node) is cst.Call and type(device.node.func) is cst.Attribute and \
        device.node.func.attr.value in ("cpu", "to")


def _host_arguments(info: Any, args: list, kwargs: dict, indexes: frozenset = frozenset()) -> list:
    """The argument expressions a call passes to parameters that must stay on the CPU, or
    that are used only to index (a CPU index picks from a CUDA tensor)."""
    host = info.host_params | indexes
    if not host:
        return []
    names = [p[0] for p in info.params[1:] if p[1] == "positional"]
    found = [node for name, (node, _) in zip(names, args) if name in host]
    return found + [node for key, (node, _) in kwargs.items() if key in host]


def _spelled_as(found: Optional[tuple], node: Any) -> Optional[tuple]:
    """A transfer's target, remembering the name the code moved it with (`device`)."""
    if found is None or found[1] is None or type(node) not in (cst.Name, cst.Attribute):
        return found
    return found[0], replace(found[1], spelled=dotted(node))


# Methods whose result has the receiver's shape.
SHAPE_KEEPING_METHODS = frozenset({
    "to", "cuda", "cpu", "float", "double", "half", "bfloat16", "long", "int", "bool", "byte",
    "type", "detach", "clone", "contiguous", "abs", "exp", "log", "sqrt", "rsqrt", "sigmoid",
    "tanh", "relu", "neg", "clamp", "clamp_", "pow", "mul", "add", "sub", "div", "requires_grad_",
    "pin_memory", "share_memory_", "fill_", "zero_", "normal_", "uniform_"})


# NumPy array methods whose result has the receiver's rank.
ARRAY_SHAPE_KEEPING = frozenset({"astype", "copy", "flatten", "ravel", "clip", "round", "cumsum",
                                 "argsort"})
# NumPy makers whose array has a dimension whatever their arguments, and those that have one
# when asked for a size (`np.random.randint(0, n, size=b)`: the size's position when positional).
_NUMPY_RANKED = frozenset({"arange", "linspace", "logspace", "stack", "concatenate", "vstack",
                           "hstack", "column_stack", "random.permutation"})
_NUMPY_SHAPED = frozenset({"zeros", "ones", "empty", "full"})
_NUMPY_SIZED = {"random.randint": 2, "random.choice": 1, "random.uniform": 2,
                "random.normal": 2, "random.random": 0, "random.random_sample": 0,
                "random.binomial": 2, "random.poisson": 1, "random.exponential": 1,
                "random.beta": 2}
_NUMPY_BY_SIZES = frozenset({"random.rand", "random.randn"})  # one dimension per size given
_NUMPY_CONVERTING = frozenset({"array", "asarray", "asanyarray", "ascontiguousarray",
                               "zeros_like", "ones_like", "empty_like", "full_like"})


def numpy_array(qualname: str, node: Any, args: list, kwargs: dict) -> Optional[Array]:
    """The array a NumPy maker returns, where the call proves whether it has a dimension;
    None for anything else of NumPy (`np.mean(x)`: a number as often as an array)."""
    name = qualname[len("numpy."):] if qualname.startswith("numpy.") else ""
    if name in _NUMPY_RANKED:
        return Array(True, node)
    if name in _NUMPY_SHAPED:
        shape = args[0][0] if args else kwargs["shape"][0] if "shape" in kwargs else None
        empty = type(shape) in (cst.Tuple, cst.List) and not shape.elements
        return Array(shape is not None and not empty, node)
    if name in _NUMPY_BY_SIZES:
        return Array(bool(args), node)  # `np.random.rand(n, 2)`
    if name in _NUMPY_SIZED:
        size = kwargs.get("size")
        return Array(size is not None and not is_none_literal(size[0]) or len(args) > _NUMPY_SIZED[name],
                     node)
    if name in _NUMPY_CONVERTING:
        data = args[0] if args else None
        ranked = data is not None and (type(data[0]) in (cst.List, cst.Tuple, cst.ListComp) or
                                       type(unwrap(data[1])) is Array and unwrap(data[1]).ranked)
        return Array(ranked, node)
    return None


# What turns a sequence into a sequence or an array with a dimension per item.
SEQUENCE_MAKERS = frozenset({"numpy.array", "numpy.asarray", "numpy.stack", "builtins.list",
                             "builtins.tuple"})


def _never_0dim(name: str, dims: Optional[int]) -> bool:
    """Whether `x.name(...)` has a dimension whatever `x` is: `actions.unsqueeze(1)` of a
    tensor made from unknown data (maybe 0-dim) is at least 1-dim, as is its `flatten()`, and a
    `view`/`reshape` to a written shape of one or more sizes. PyTorch lets only a 0-dim CPU
    tensor meet CUDA tensors, so such a result on the CPU is a mismatch (`q.gather(1, idx)`)."""
    if name in ("unsqueeze", "flatten", "ravel"):
        return True
    return name in ("view", "reshape") and dims is not None and dims > 0


def _method_dims(tensor: Tensor, node: Any, name: str) -> Optional[int]:
    """The rank of `tensor.name(...)`, where the call says it: a shape-keeping method keeps
    the receiver's, `view`/`reshape` with a written shape has that shape's length."""
    if name in SHAPE_KEEPING_METHODS:
        return tensor.dims
    if name in ("view", "reshape") and type(node) is cst.Call:
        return shape_length(list(node.args))
    if name in api.AXIS_REDUCTIONS and tensor.dims is not None and type(node) is cst.Call:
        # `frames.mean(0)`: one dimension fewer, unless `keepdim=True` keeps it
        axes = _reduced_axes(node)
        if axes is not None:
            return tensor.dims if _keeps_dims(node) else max(tensor.dims - axes, 0)
    return None


def _reduced_axes(call: cst.Call) -> Optional[int]:
    """How many axes a reduction's written `dim` names: 1 for `0` or `-1`, 2 for `(1, 2)`;
    None where it names none or a value."""
    given = keyword_arg(call, "dim") or next(iter(positional_args(call)), None)
    dim = given.value if given is not None else None
    if type(dim) is cst.UnaryOperation and type(dim.operator) is cst.Minus:
        dim = dim.expression
    if type(dim) is cst.Integer:
        return 1
    if type(dim) in (cst.Tuple, cst.List) and dim.elements and all(
            type(e.value) is cst.Integer or (type(e.value) is cst.UnaryOperation and
                                             type(e.value.expression) is cst.Integer)
            for e in dim.elements):
        return len(dim.elements)
    return None


def _keeps_dims(call: cst.Call) -> bool:
    keep = keyword_arg(call, "keepdim")
    return keep is not None and not (type(keep.value) is cst.Name and keep.value.value == "False")


def _may_be_integer(index: Value, node: Any) -> bool:
    """An index that may be a Python int (`i` of `range`, a number, a value devlint cannot
    read) or a 0-dim tensor: it takes a dimension away. A list, a tensor of indices, `None`
    and `...` do not."""
    if type(node) is cst.Ellipsis or is_none_literal(node):
        return False
    if type(index) is Scalar:
        return index.text is None
    if type(index) is Tensor:
        return index.scalar or index.dims == 0
    return type(index) is Opaque


def _fewer_dims(item: Tensor, taken: int, complete: bool) -> Tensor:
    """`t[i]` has one dimension fewer than `t`. When every index is an integer and `t`'s rank
    is unknown, the item may be 0-dim, which PyTorch lets meet device tensors: unknown stays
    silent. A slice keeps a dimension, so `t[:, i]` is never 0-dim."""
    if item.dims is not None:
        dims = max(item.dims - taken, 0)
        return replace(item, dims=dims, scalar=item.scalar or dims == 0)
    return replace(item, scalar=True) if complete else item


def _computed_from(info: Any) -> dict:
    """The locals of a function each binding of which computes from one and the same parameter
    and numbers alone: `frames = (wav_lens // self.hop + 1) // 2`, or pieces of it
    (`splits = iter(x.split(8))`, `s = next(splits)`, `for s in splits:`); name -> that
    parameter. A call that hands the parameter to something else (`self.encoder(x)`) computes
    a new value, not a piece of it."""
    if info.computed is None:
        method = info.cls is not None and not info.static and info.params
        params = {p[0] for p in info.params[1 if method else 0:]}  # not `self`
        bindings = []
        for node in walk(info.node):
            if type(node) is cst.Assign and len(node.targets) == 1 and \
                    type(node.targets[0].target) is cst.Name:
                bindings.append((node.targets[0].target.value, node.value))
            elif type(node) is cst.For and type(node.target) is cst.Name:
                bindings.append((node.target.value, node.iter))
        sources: dict = {p: p for p in params}
        # module-level aliases of torch's conversions (`LT = t.LongTensor`)
        env = info.owner.module_env if info.owner is not None else {}
        conversions = frozenset(name for name, value in env.items() if type(value) is Ref and
                                api.last(value.qualname) in _CONVERSIONS)
        conversions |= frozenset(f"{name}.{c}" for name, value in env.items()
                                 if type(value) is Ref and value.qualname == "torch" for c in _CONVERSIONS)
        for _ in range(3):  # pieces of pieces: `s = next(iter(x.split(8)))` over three lines
            found: dict = {}
            for name, value in bindings:
                if name in params:
                    one = None
                else:
                    # (`v = v.cuda() if w.is_cuda else v`: a rebinding of the name from itself
                    # alone says nothing new of where it comes from)
                    one = _piece_of(value, {name: name, **sources}, conversions)
                    if one == name and name not in sources:
                        continue
                found[name] = one if found.get(name, one) == one else None
            sources = {**{p: p for p in params}, **{k: v for k, v in found.items() if v is not None}}
        info.computed = {k: v for k, v in sources.items() if k not in params}
    return info.computed


_PIECE_BUILTINS = frozenset({"iter", "next", "list", "tuple", "reversed", "enumerate"})
# torch's conversions of data into a tensor: the same data, as a tensor (`torch.LongTensor(ids)`)
_CONVERSIONS = frozenset({"tensor", "as_tensor", "from_numpy", "Tensor", "LongTensor", "FloatTensor",
                          "IntTensor", "DoubleTensor", "BoolTensor", "ByteTensor", "HalfTensor"})


def _piece_of(value: Any, sources: dict, conversions: frozenset = frozenset()) -> Optional[str]:
    """The one parameter an expression computes from with arithmetic, its own methods
    (`x.split(8)`, `x.float()`), `iter`/`next` and torch's conversions into a tensor
    (`torch.LongTensor(data)`, or `LT(data)` with `LT = torch.LongTensor`: pytorch-sgns's
    `forward_i`), else None."""
    used = set()
    for node in walk(value):
        if type(node) is cst.Call:
            func = node.func
            if type(func) is cst.Name and (func.value in _PIECE_BUILTINS or func.value in conversions):
                continue
            if type(func) is cst.Attribute and (dotted(func) or "") in conversions:
                continue  # `torch.LongTensor(data)`, `t.as_tensor(data)` with `import torch as t`
            root = func.value if type(func) is cst.Attribute else None
            while type(root) in (cst.Attribute, cst.Call, cst.Subscript):
                root = root.func if type(root) is cst.Call else root.value
            if type(root) is cst.Name and root.value in sources:
                continue  # a method of the piece itself
            return None
        if type(node) is cst.Name and node.value in sources:
            used.add(sources[node.value])
    return next(iter(used)) if len(used) == 1 else None


def _only_picked(info: Any, name: str) -> bool:
    """Whether every assignment to `name` in the function picks an element (`name = d[k]`)."""
    if info.picked is None:
        kinds: dict = {}
        for node in walk(info.node):
            if type(node) is cst.Assign:
                for target in node.targets:
                    if type(target.target) is cst.Name:
                        picked = kinds.get(target.target.value, True) and type(node.value) is cst.Subscript
                        kinds[target.target.value] = picked
        info.picked = frozenset(k for k, v in kinds.items() if v)
    return name in info.picked


_WRAPPER_NAMES = frozenset(api.last(q) for q in api.INPUT_MOVING_WRAPPERS | api.DDP)


def _isinstance_returned(function: cst.FunctionDef) -> Optional[tuple]:
    """(parameter, class name) of a function whose only statement returns
    `isinstance(param, Cls)`, maybe `or` tests that name no other class than `Cls` and
    wrappers of a module (`isinstance(m, DistributedDataParallel) and isinstance(m.module, Cls)`)."""
    body = function.body.body if type(function.body) is cst.IndentedBlock else ()
    if len(body) != 1 or type(body[0]) is not cst.SimpleStatementLine or \
            len(body[0].body) != 1 or type(body[0].body[0]) is not cst.Return:
        return None
    returned = body[0].body[0].value
    first = returned
    while type(first) is cst.BooleanOperation and type(first.operator) is cst.Or:
        first = first.left
    tests = [n for n in walk(returned) if type(n) is cst.Call and dotted(n.func) == "isinstance"
             and len(n.args) == 2]
    if first not in tests or type(first.args[0].value) is not cst.Name or \
            type(first.args[1].value) is not cst.Name:
        return None
    spelled = first.args[1].value.value
    for other in tests:
        kind = dotted(other.args[1].value) or ""
        if kind != spelled and api.last(kind) not in _WRAPPER_NAMES:
            return None
    return first.args[0].value.value, spelled


_TENSOR_TYPES = re.compile(r"(^|\.)(Tensor|\w+Tensor|Parameter)$")


def _narrowings(test: Any) -> Iterator[tuple]:
    """What `not_a_tensor` proves of a test, through `or` and `and`: past `if x is None or
    isinstance(x, torch.Tensor): return x`, every part was false, so x is no tensor there."""
    if type(test) is cst.BooleanOperation:
        arm = type(test.operator) is cst.And  # `and`: each part holds in the body
        for part in (test.left, test.right):
            for name, when in _narrowings(part):
                if when is arm:
                    yield name, when
        return
    narrowed = not_a_tensor(test)
    if narrowed is not None:
        yield narrowed


def not_a_tensor(test: Any) -> Optional[tuple]:
    """(name, arm) when `test` proves a name is no tensor in one arm: `isinstance(x, (list,
    tuple))` in its body (True), `isinstance(x, torch.Tensor)` in its else (False)."""
    negated = False
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        test, negated = test.expression, True
    if type(test) is cst.Call and len(test.args) == 1 and type(test.args[0].value) is cst.Name and \
            (dotted(test.func) or "").endswith("is_torch_fx_proxy"):
        # transformers' `if is_torch_fx_proxy(input_ids):` arm runs under symbolic tracing only,
        # where the value is an FX proxy, no tensor
        return test.args[0].value.value, not negated
    if type(test) is not cst.Call or dotted(test.func) != "isinstance" or len(test.args) != 2:
        return None
    subject = test.args[0].value
    if type(subject) is not cst.Name:
        return None
    tensor = tensor_kinds(test.args[1].value)
    if tensor is False:
        return subject.value, not negated  # only other kinds: no tensor where it holds
    if tensor is True:
        return subject.value, negated  # only tensor kinds: no tensor where it fails
    return None


def tensor_kinds(kinds: Any) -> Optional[bool]:
    """Whether the classes `isinstance` is given are tensor classes: True when all are
    (`torch.Tensor`, `(Tensor, nn.Parameter)`), False when none is (`np.ndarray`, `(list,
    tuple)`), None when they mix or one cannot be read."""
    types = [e.value for e in kinds.elements] if type(kinds) is cst.Tuple else [kinds]
    spelled = [dotted(t) for t in types]
    if any(t is None for t in spelled):
        return None
    tensor = [bool(_TENSOR_TYPES.search(t)) for t in spelled]
    return True if all(tensor) else False if not any(tensor) else None


def _tensor_for_sure(value: Value) -> bool:
    """A tensor itself (not a batch object or a model's answer of unknown kind), placed by
    the code, not by a convention: made by a factory, moved, a parameter or an operation's
    result."""
    return is_tensor(value) and value.plain and not value.assumed and \
        value.why in ("factory", "moved", "param", "attr", "weight", "data")


# transformers' model classes by their names: `AutoModelForCausalLM`, `BertModel`,
# `GPT2LMHeadModel`, `T5ForConditionalGeneration` (not `AutoTokenizer`, `AutoConfig`,
# `AutoProcessor`, `AutoImageProcessor`, `AutoFeatureExtractor`).
_LIBRARY_MODEL = re.compile(r"^transformers\.(\w+\.)*\w*(Model|For[A-Z]\w*)$")


def _library_model_class(qualname: str) -> bool:
    """A transformers model class: its `from_pretrained` builds a module, on the CPU unless
    loading places it (`_placed_by_loading`)."""
    return bool(_LIBRARY_MODEL.match(qualname or ""))


def _placed_by_loading(kwargs: dict) -> bool:
    """`from_pretrained(..., device_map="auto")`, or quantized weights (`load_in_8bit=True`,
    `quantization_config=...`), which bitsandbytes puts on the GPU as it loads them."""
    return any(key in kwargs for key in ("device_map", "load_in_8bit", "load_in_4bit", "quantization_config"))


def _names_pipeline(name: str) -> bool:
    """`StableDiffusionPipeline`, `MarigoldDepthPipeline`: a diffusers-style pipeline."""
    return "Pipeline" in name


def _device_tensor_for_sure(value: Value) -> bool:
    """A tensor on the device, and a tensor for sure: what a model answers may be anything (PIL
    images, a detector's dicts), what a loss answers is a tensor (0-dim: an item of an answer of
    unknown rank may be 0-dim too, but that proves nothing: `for img in pipe(p).images`)."""
    return is_tensor(value) and value.place is DEVICE and value.plain and not value.assumed and (
        value.why in ("moved", "data") or (value.why == "output" and value.dims == 0))


def _autograd_function(info: Any) -> bool:
    """A `torch.autograd.Function` subclass of this file."""
    return any(type(b) is Ref and b.qualname in api.AUTOGRAD_FUNCTIONS or
               type(b) is Klass and _autograd_function(b.info) for b in info.bases)


class _Apply(Value):
    """`Fn.apply` of a custom `torch.autograd.Function` of this file."""
    __slots__ = ("info",)

    def __init__(self, info: Any) -> None:
        self.info = info

    def __eq__(self, other: object) -> bool:
        return type(other) is _Apply and other.info is self.info

    def __hash__(self) -> int:
        return hash(id(self.info))


LAYERS = "<layers>"  # a module container's attribute: the modules it holds, joined


_STRING_TESTS = frozenset({"startswith", "endswith"})


def _raises_type_error(callee: Value, node: Any, args: list, kwargs: dict) -> bool:
    """A call of a function or class of the code devlint reads (undecorated: its signature is
    its own) with arguments its parameters cannot take: more positional ones than it has, a
    keyword it does not name, a required one left out. It raises TypeError on every machine.
    (Not asked in a notebook, whose kernel may hold another version of the package, one it
    installs with `!pip`.)"""
    if type(callee) is Klass:
        init = callee.info.lookup("__init__")
        return type(init) is Func and _arguments_refused(init.info, node, args, kwargs, 1)
    return _arguments_refused(callee.info, node, args, kwargs, 0)


def _arguments_refused(info: Any, node: Any, args: list, kwargs: dict, implicit: int) -> bool:
    """`_raises_type_error` for the function `info`; `implicit`: the arguments the call passes
    unwritten (a constructor's `self`)."""
    function = info.node
    if type(node) is not cst.Call or type(function) is not cst.FunctionDef or function.decorators:
        return False
    if any(arg.star for arg in node.args):
        return False
    positional = [arg for arg in node.args if arg.keyword is None]
    keywords = [arg.keyword.value for arg in node.args if arg.keyword is not None]
    if len(positional) != len(args) or set(keywords) != set(kwargs):
        return False  # (not this call's own arguments: a wrapper's, a partial's)
    params = info.params
    named = [p for p in params if p[1] == "positional"]
    if not any(p[1] == "*" for p in params) and implicit + len(positional) > len(named):
        return True
    accepted = {p[0] for p in params if p[1] in ("positional", "keyword")}
    if not any(p[1] == "**" for p in params) and any(k not in accepted for k in keywords):
        return True
    given = {p[0] for p in named[:implicit + len(positional)]} | set(keywords)
    return any(p[2] is None and p[0] not in given for p in params if p[1] in ("positional", "keyword"))


def holds_nothing(module: Module) -> bool:
    """`nn.Sequential()`, `nn.ModuleList()`, or a container of parameterless layers only
    (`nn.Sequential(nn.ReLU(), nn.Dropout())`), as made: no parameter or buffer to move. (What
    is appended to it later is judged where it is appended.)"""
    node = module.node
    if type(node) is not cst.Call or api.last(dotted(node.func) or "") not in api.MODULE_CONTAINERS:
        return False
    if not node.args:
        return True
    layers = module.attr(LAYERS)
    return type(layers) is Module and layers.stateless and not layers.assumed and \
        all(not arg.star and arg.keyword is None for arg in node.args)


def _layers_given(args: list) -> Optional[Module]:
    """The modules `nn.ModuleList([Block() for _ in range(n)])`, `nn.Sequential(a, b)` or
    `nn.ModuleDict({...})` is given, joined; None when any of them is unknown."""
    found: list = []
    for _, value in args:
        value = unwrap(value)
        if type(value) in (Seq, Iterable):
            value = unwrap(value.element)
            if type(value) is Seq and value.items is not None and len(value.items) == 2:
                value = unwrap(value.items[1])  # `ModuleDict({k: m for ...})`'s (key, module) pairs
        if type(value) is not Module:
            return None
        found.append(value)
    joined = reduce(join, found) if found else None
    return joined if type(joined) is Module else None


def _in_mode(found: Optional[Value], module: Module) -> Optional[Value]:
    """A submodule of `module`: `.eval()` and `.train()` set every submodule's mode, so one
    whose own mode the code never set is in its parent's."""
    if type(found) is Module and found.training is None and module.training is not None:
        return replace(found, training=module.training)
    return found


def _train_mode(args: list, kwargs: dict) -> Optional[bool]:
    """The mode `module.train(...)` sets: `train()` and `train(True)` training, `train(False)`
    evaluation, a mode devlint cannot read unknown."""
    given = kwargs.get("mode") or (args[0] if args else None)
    if given is None:
        return True
    if type(given[0]) is cst.Name and given[0].value in ("True", "False"):
        return given[0].value == "True"
    return None


def _container_place(given: list) -> Place:
    """Where `nn.Sequential(...)`, `nn.ModuleList(...)` or `nn.ModuleDict(...)` is: a container
    has no parameters of its own, so it is where the modules it is given are. Layers taken
    from a moved model (`nn.Sequential(*vgg.features[:22])` of a VGG already on the device)
    are on the device, modules of unknown place leave it unknown, and a module with state on
    the CPU keeps it there; values not proven to be modules say nothing, and a container of
    nothing known is made on the CPU like any module."""
    places = set()
    for _, value in given:
        value = unwrap(value)
        if type(value) is Seq and value.items is not None:
            values = [unwrap(item) for item in value.items]
        elif type(value) in (Seq, Iterable):
            values = [unwrap(value.element)]
        else:
            values = [value]
        for item in values:
            if type(item) is Seq and item.items is not None and len(item.items) == 2:
                item = unwrap(item.items[1])  # `ModuleDict({k: m for ...})`'s (key, module) pairs
            if type(item) is Module and not item.stateless:
                places.add(item.place)
            elif type(item) is Tensor and item.of_object and not item.plain:
                # a part of a model of unknown class (`*vgg.features[:22]`): what a container
                # takes is a module, where that model is
                places.add(item.place)
    if not places or Place.HOST in places:
        return HOST
    return DEVICE if places == {DEVICE} else Place.UNKNOWN


def _layer_of(container: Module, node: Any) -> Module:
    """A layer of a Sequential or a ModuleList (iterated or indexed): the modules it was given,
    where the container is, put there by the container's move; a layer of unknown class when
    they are unknown."""
    layers = container.attr(LAYERS)
    if type(layers) is Module:
        return _follow(layers, container.place, container.moved_at)
    return replace(container, node=node, cls=None, attrs=())


def MISMATCHED(node: Any) -> Tensor:
    """What an operation of a CPU tensor and a device tensor gives, when the CPU one is data
    the code sent there itself (see `_deliberate_host`): it raises on the GPU, and no fix devlint
    reports says where its result would be, so it is unknown and what is computed from it meets
    nothing (`magnitude.cpu()` through `conv_transpose1d` with a device weight, then divided by a
    window kept where `magnitude` is)."""
    return Tensor(Place.UNKNOWN, "data", node)


# Where a CPU operand comes from when a rule reports it (a factory, an attribute, a batch, a
# cast, a tokenizer's encoding): fixed as reported, it is on the device, and so is the result.
REPORTED_ORIGINS = frozenset({"factory", "attr", "batch", "cast", "encoding"})


def _post_processing(args: list, kwargs: dict, any_host: bool) -> bool:
    """Whether a method devlint cannot read is handed CPU data and no tensor proven on the
    device: data the code itself brought to the CPU (`lm.cpu()`), or (`any_host`) any tensor
    on the CPU (a factory's). Another answer of the same object (`affine`) proves nothing."""
    operands = [v for _, v in _tensor_operands(args, kwargs)]
    return bool(operands) and ((any_host and all(map(on_host, operands))) or
                               _deliberate_host(operands)) and \
        not any(v.plain and on_device(v) for v in operands)


def _deliberate_host(values: list) -> bool:
    """The CPU operands of a mismatch are data no rule reports (`x.cpu()`, a value computed on
    the CPU): nothing says where the operation would run."""
    hosts = [v for v in values if on_host(v)]
    return bool(hosts) and not any(v.why in REPORTED_ORIGINS for v in hosts)


def _elementwise(node: Any, left: Tensor, right: Tensor, compared: bool = False) -> Tensor:
    """The result of an elementwise operation of two tensors (`a + b`, `a < b`): on the device
    when either is; else, with a tensor this code made on the CPU (a factory's, an attribute's) or
    the loader's batch in it, still that one, on the CPU (`torch.eye(n) + A`,
    `torch.arange(t) < lengths[:, None]`)."""
    if on_device(left) or on_device(right):
        return Tensor(DEVICE, "data", node)
    # a 0-dim operand (`sigmas[i] * s_in`) meets any device: the other one is what must move,
    # so the result is never the 0-dim one's (`betas[i] * eps` is not `betas` of any shape)
    both_scalar = left.scalar and right.scalar
    made = next((t for t in sorted((left, right), key=lambda t: t.scalar)
                 if t.why in ("attr", "factory") and (both_scalar or not t.scalar)), None)
    if made is None and left.place is HOST and right.place is HOST:
        made = _batch_operand(left, right, compared)  # `x + noise`: still the loader's batch
    if made is not None and left.place is HOST and right.place is HOST:
        return derived(made, node, scalar=left.scalar and right.scalar,
                       dims=None if not (left.dims == 0 and right.dims == 0) else 0)
    return Tensor(join_place(left.place, right.place), "data", node, scalar=left.scalar and right.scalar)


def derived(tensor: Tensor, node: Any, **changes: Any) -> Tensor:
    """A tensor computed from `tensor`, where it is. A factory's, an attribute's or a cast's
    tensor keeps its origin (DEV006, DEV010 and DEV021 point at where it was made), and so does a
    tensor taken out of a tokenizer's encoding (DEV020 points at where it was taken)."""
    origin = tensor.node if tensor.why in ("factory", "attr", "cast") or (
        tensor.why == "encoding" and tensor.plain) else node
    return replace(tensor, node=origin, discarded=None, **changes)


def _spelled(node: Any) -> Optional[str]:
    return dotted(node) if node is not None else None


# Keywords by which diffusers and transformers are asked for PIL images or NumPy arrays.
_OUTPUT_KEYWORDS = frozenset({"output_type", "return_tensors"})
_NOT_TORCH_OUTPUTS = frozenset({"pil", "np", "numpy"})


def _asks_no_torch_output(node: cst.Call) -> bool:
    return any(arg.keyword is not None and arg.keyword.value in _OUTPUT_KEYWORDS and
               string_value(arg.value) in _NOT_TORCH_OUTPUTS for arg in node.args)


def _gathers_by_indices(args: list, kwargs: dict) -> bool:
    """`gather(dim, index)` with an index tensor that is not a 0-dim number."""
    given = kwargs.get("index") or (args[1] if len(args) > 1 else None)
    index = unwrap(given[1]) if given is not None else None
    return type(index) is Tensor and not index.scalar


# A class by its name (PEP 8's CapWords) that is a loss: `AMSELoss`, `FocalLoss`.
LOSS_CLASS_NAME = re.compile(r"^[A-Z]\w*Loss$")


def _as_fixed(value: Value) -> Value:
    """A CPU tensor handed to a model on the device, reported at the call: where its fix puts
    it. Anything else reported there (a list holding CPU tensors) is unknown inside."""
    if type(value) is Tensor and host_input(value):
        return replace(value, place=DEVICE)
    return OPAQUE


def _answers_on_device(module: Value, operands: list) -> bool:
    """A model moved on some paths only (in a loop that may not run), handed tensors the code
    put on the device and none on the CPU: where it answers at all, it answers there (on the
    CPU it would have refused them)."""
    return type(module) is Module and not module.moves_inputs and \
        any(on_device(v) and not v.assumed for _, v in operands) and \
        not any(on_host(v) for _, v in operands)


def _follow(value: Value, place: Place, moved_at: Any = None) -> Value:
    """A module's parameters, buffers and submodules live where the module does; plain tensor
    attributes stay where they were made. One registered on some paths only (a `Maybe`) too.
    A submodule was put there by its model's move (`moved_at`, when the model's is known)."""
    if type(value) is Maybe:
        inner = _follow(value.value, place, moved_at)
        return value if inner is value.value else Maybe(inner)
    if type(value) is Module:
        if moved_at is not None and place is DEVICE and value.moved_at is None:
            return replace(value, place=place, moved_at=moved_at)
        return value if value.place is place else replace(value, place=place)
    if type(value) is Tensor and value.why in ("param", "weight"):
        return value if value.place is place else replace(value, place=place)
    return value


def _applied(cls: Any) -> frozenset:
    """The attributes a module class's own `_apply` reassigns (`self.noise = fn(self.noise)`):
    `.to()`, `.cuda()` and `.half()` run `_apply`, so those move with the parameters. Likewise
    its own `cuda` or `to` (`self.ref_vertices = self.ref_vertices.cuda(*args)`): the class
    moves them itself when it is moved that way, and where its mover did is not known here."""
    if cls is None:
        return frozenset()
    found: set = set()
    for name in ("_apply", "cuda", "to"):
        member = cls.lookup(name)
        if type(member) is not Func or type(member.info.node) is not cst.FunctionDef:
            continue
        found.update(
            target.target.attr.value for sub in walk(member.info.node.body) if type(sub) is cst.Assign
            for target in sub.targets if type(target.target) is cst.Attribute
            and type(target.target.value) is cst.Name and target.target.value.value == "self")
    return frozenset(found)


def trainer_class(cls: Any) -> bool:
    """A subclass of transformers' (or trl's) `Trainer`: the trainer places model and batches."""
    if cls is None:
        return False
    return any(type(b) is Ref and api.TRAINER_CLASSES.match(b.qualname) is not None
               for info in cls.mro() for b in info.bases)


def _placed_batch(value: Value, node: Any) -> Value:
    """A batch a trainer moved (`self._prepare_inputs(inputs)`): its tensors on the device."""
    if type(value) is Tensor:
        return replace(value, place=DEVICE, why="moved", node=node, assumed=False)
    return Tensor(DEVICE, "moved", node, plain=False, dict_like=True)


def _moved_beside(tensor: Tensor, other: Any) -> bool:
    """`tensor` was moved to `other.device` (the device of the very expression `other`)."""
    device = tensor.device
    spelled = _spelled(other)
    return device is not None and spelled is not None and device.spelled == f"{spelled}.device"


def _batch_operand(left: Tensor, right: Tensor, compared: bool = False) -> Optional[Tensor]:
    """A batch combined with host data derived here (`x + 0.1 * torch.randn_like(x)`, an
    augmentation), or compared with batch data (`labels[:, None] == labels[None, :]`, the
    positives of a contrastive loss): the result is that batch's data, not moved either
    (DEV002). (Arithmetic of two batch tensors is the batch's data too, but a meeting of it
    would be a second finding of the batch's one root cause: it stays unknown.)"""
    for batch, other in ((left, right), (right, left)):
        if batch.why == "batch" and batch.plain and (
                other.why == "data" or (compared and other.why == "batch")):
            return batch
    return None


def _unreadable_member(receiver: Value, name: str) -> bool:
    """`name` is no member devlint can read of the receiver's class, which has a base class it
    cannot read (a framework's template, a library's trainer): the method is somewhere there."""
    cls = receiver.cls
    return cls is not None and cls.lookup(name) is None and not cls.bases_known()


def _drawn(value: Value) -> bool:
    """A batch drawn from a loader, or a container of such batches."""
    value = unwrap(value)
    if type(value) is Tensor:
        return value.why == "batch"
    if type(value) is Seq:
        return any(_drawn(v) for v in (value.items or ())) or _drawn(value.element)
    return False


def _prepared_batch(element: Value) -> Value:
    """A batch of a prepared loader: its tensors, and those of a tuple of them, on the device."""
    if type(element) is Tensor:  # placed by accelerate, not by a convention about loaders
        return replace(element, place=DEVICE, assumed=False)
    if type(element) is Seq and element.keys is None:
        items = None if element.items is None else tuple(_prepared_batch(v) for v in element.items)
        return Seq(element.kind, items, _prepared_batch(element.element), node=element.node)
    return OPAQUE


def _element(value: Value) -> Value:
    if type(value) in (Seq, Iterable):
        return value.element
    if type(value) is Tensor and value.plain and not value.dict_like and value.place is DEVICE:
        # `preds.extend(out.argmax(1))`: the list gets the tensor's rows, where it is
        return replace(value, dims=value.dims - 1 if value.dims else None,
                       scalar=value.dims == 1, discarded=None)
    return OPAQUE


def _chosen_parts(items: list) -> list:
    """`model([[x.to(device) for x in j[0]], j[1]])`: a display that rebuilds a batch from its
    parts, moving some of them on the spot, left the others where they are by choice (the
    lengths `pack_padded_sequence` wants on the CPU): those are no proven device input."""
    def moved(value: Value) -> bool:  # a part rebuilt as a list of moved tensors
        value = unwrap(value)
        if type(value) is not Seq or value.kind == "dict":
            # (`torch.cat((x.to(device), batch))` rebuilds no batch; a dict of moved inputs
            # beside the labels, `return inputs, batch["labels"]`, is the model's part and the
            # loss's, not parts of one input)
            return False
        value = unwrap(value.element)
        return type(value) is Tensor and value.place is Place.DEVICE and value.why == "moved"
    if len(items) < 2 or not any(moved(v) for v in items):
        return items
    return [replace(unwrap(v), place=Place.UNKNOWN, why="data", bound=None)
            if type(unwrap(v)) is Tensor and unwrap(v).why == "batch" and unwrap(v).place is Place.HOST
            else v for v in items]


def _seq(kind: str, items: list, node: Any) -> Seq:
    element = items[0] if items else OPAQUE
    for other in items[1:]:
        element = join(element, other)
    return Seq(kind, tuple(items), element, node=node)


def _item(seq: Seq, index: Any, key_node: Any) -> Value:
    if seq.items is not None and type(index) is Scalar:
        if seq.keys is not None:
            key = string_value(key_node) if key_node is not None else None
            if key in seq.keys:
                return seq.items[seq.keys.index(key)]
            if key is not None:
                # `kwargs['sigma_affine']` of a call that passed only `kp_1` and `kp_2`: a key
                # the dict does not hold raises (or was set by code the run did not follow),
                # so it reads none of the values the dict holds
                return OPAQUE
        elif index.number is not None and index.number == int(index.number):
            position = int(index.number)
            if -len(seq.items) <= position < len(seq.items):
                return seq.items[position]
    if index == "slice":
        return seq
    return seq.element


def _kw(kwargs: dict) -> dict:
    return {k: v for k, (_, v) in kwargs.items()}


def _ctc_shaped(args: list, kwargs: dict) -> bool:
    """`criterion(log_probs, targets, input_lengths, target_lengths)`: CTC's signature, the one
    loss of four tensors (a criterion that is CTC on one path and another loss on the other
    included)."""
    return len(args) == 4 and not kwargs


def _ctc_operands(args: list, kwargs: dict) -> list:
    """CTC loss: `targets`, `input_lengths` and `target_lengths` may be CPU tensors whatever the
    device of the log-probabilities (PyTorch documents it for the lengths and copies CPU targets to
    the log-probabilities' device for its own kernel; cuDNN's CTC even wants them all there)."""
    kept = {k: v for k, v in kwargs.items() if k not in ("targets", "input_lengths", "target_lengths")}
    return _tensor_operands(list(args)[:1], kept)


def _tensor_operands(args: list, kwargs: dict, flatten: bool = True) -> list:
    """The tensors among a call's arguments, with the expressions that hold them; the
    elements of a tuple or list argument (`torch.cat([a, b])`), a `**batch`."""
    found = []
    for node, value in list(args) + list(kwargs.values()):
        if type(value) is Tensor:
            found.append((node, value))
        elif flatten and type(value) is Seq:
            values = value.items if value.items is not None else (value.element,)
            found.extend((node, v) for v in values if type(v) is Tensor)
    return found


# Objects that hold settings or run things, not data: their `.device` is the device the code
# chose (`args.device`, `trainer.device`, `pl_module.device`).
_SETTINGS_NAME = re.compile(r"(^|_)(self|cls|args|opts?|cfg|config|conf|hparams|hps?|params|flags|"
                            r"trainer|accelerator|fabric|runner|engine|ctx|state|agent|learner|"
                            r"pipe(line)?|module|mod|layer|env|policy|worker|solver|exp|experiment)$",
                            re.IGNORECASE)


def _unknown_data(owner: Any) -> bool:
    """The expression names data (`x1`, `enc_out[0]`, `batch.x`), not a settings object, a
    model or a device, by its root name and its last name."""
    root = owner
    while type(root) in (cst.Attribute, cst.Subscript, cst.Call):
        root = root.value if type(root) is not cst.Call else root.func
    if type(root) is not cst.Name:
        return False
    last = owner.attr.value if type(owner) is cst.Attribute else root.value
    return not any(names.names_model(n) or names.names_device(n) or _SETTINGS_NAME.search(n)
                   for n in {root.value, last})


DEVICE_MADE = Opaque("<device>")  # what an unknown call handed device data gives back


def gpu_only_specs(specs: list, ids: set) -> list:
    """The device specs, those at the nodes `ids` marked as reached only with a GPU."""
    return [replace(spec, where=replace(spec.where, cpu=False))
            if id(spec.node) in ids and spec.where.cpu else spec for spec in specs]


def _holds_device(value: Value, depth: int = 3) -> bool:
    """A device tensor, or a tuple, list or dict holding one (`TData((X_num, X_cat), Y)` of
    dicts of tensors moved to the device)."""
    if type(value) is Tensor:
        return value.place is DEVICE
    if type(value) is Seq and depth > 0:
        items = value.items if value.items is not None else (value.element,)
        return any(_holds_device(item, depth - 1) for item in items)
    return False


def _place_of(value: Value) -> Place:
    if type(value) in (Tensor, Module):
        return value.place
    if type(value) is Seq:
        values = value.items if value.items is not None else (value.element,)
        place = Place.NONE
        for item in values:
            place = join_place(place, _place_of(item))
        return place
    return Place.UNKNOWN


def _drawn_in(item: Value, loop: Any) -> Value:
    if type(item) is Tensor and item.why == "batch":
        return replace(item, loop=loop)
    if type(item) is Seq and type(item.element) is Tensor and item.element.why == "batch":
        return replace(item, element=replace(item.element, loop=loop))
    return item


def _transposed(produced: Value) -> bool:
    """A `collate_fn`'s result whose fields are tuples of the samples' values
    (`return tuple(zip(*batch))`), not tensors it stacked."""
    if type(produced) is not Seq:
        return False
    fields = produced.items if produced.items is not None else (produced.element,)
    return any(type(item) is Seq and item.kind == "tuple" and item.items is None for item in fields)


def _holds_tensor(value: Value) -> bool:
    """A tensor, or a list or tuple holding one the collate function made
    (`[pad_sequence(seqs)]`); not a list of the samples' own fields, picked as they are
    (`[f["labels"] for f in batch]`: of unknown kind)."""
    value = unwrap(value)
    if type(value) is Seq and value.kind in ("list", "tuple"):
        items = value.items if value.items is not None else (value.element,)
        return any(type(unwrap(item)) is Tensor and (unwrap(item).why != "batch" or
                                                    type(unwrap(item).node) is cst.Call)
                   for item in items)
    return type(value) is Tensor


def _encoding(value: Value) -> bool:
    """A tokenizer's whole output (`BatchEncoding`) on the host, not a tensor taken from it."""
    value = unwrap(value)
    return type(value) is Tensor and value.why == "encoding" and not value.plain and value.place is HOST


def _collated_field(value: Value, node: Any) -> Value:
    """One position of what a `collate_fn` returns: a batch tensor where it made a tensor on a
    known place, a tuple of the samples' tensors (or of their dicts of tensors) where it
    transposed them (`tuple(zip(*batch))`), a number as it is, anything else (a list it built)
    of unknown kind."""
    if _encoding(value):
        return Tensor(HOST, "encoding", node, plain=False)
    if type(value) is Tensor and value.place in (HOST, DEVICE):
        return Tensor(value.place, "batch", node, plain=False)
    if type(value) is Seq and value.kind == "tuple" and value.items is None:
        sample = unwrap(value.element)
        mapping = type(sample) is Seq and sample.kind == "dict"
        inner = unwrap(sample.element) if mapping else sample
        if type(inner) is Tensor and inner.place in (HOST, DEVICE) and inner.plain:
            return Seq("tuple", None, Tensor(inner.place, "batch", node, plain=not mapping,
                                             dict_like=mapping, held=True))
    return value if type(value) is Scalar else OPAQUE


def _runs_on_the_cpu_too(kwargs: dict) -> bool:
    """A Lightning `Trainer`'s `accelerator=` that leaves machines without a GPU on the CPU:
    none given, `"auto"` or `"cpu"` (not `"gpu"`, `"cuda"`, nor a value devlint does not know),
    and no `gpus=` (Lightning 1.x's request for GPUs); not a `Trainer(**cfg.trainer)`."""
    if "**" in kwargs or "*" in kwargs or "gpus" in kwargs:
        return False
    given = kwargs.get("accelerator")
    if given is None:
        return True
    return type(given[1]) is Scalar and given[1].text in ("auto", "cpu")


def _is_loader(value: Value) -> bool:
    return type(value) is Iterable and value.loader


# An object of accelerate's `Accelerator` or of Lightning's `Fabric`, bound to any name.
ACCELERATOR = Opaque("<accelerator>")
FABRIC = Opaque("<fabric>")


def _accelerate(receiver: Value, node: Any) -> bool:
    """The receiver is accelerate's `Accelerator` (by its class, or by its name)."""
    if receiver == ACCELERATOR or receiver == FABRIC:
        return receiver == ACCELERATOR
    if type(receiver) is Ref:
        return receiver.qualname.startswith("accelerate")
    return "accelerat" in _spelled_receiver(node)


def _prepares(receiver: Value, node: Any) -> bool:
    if receiver == ACCELERATOR or receiver == FABRIC:
        return True
    if type(receiver) is Ref:
        return receiver.qualname.startswith(("accelerate", "lightning", "pytorch_lightning"))
    spelled = _spelled_receiver(node)
    return "accelerat" in spelled or "fabric" in spelled


def _spelled_receiver(node: Any) -> str:
    """`accelerator` of `accelerator.prepare(...)`, lower case."""
    return (dotted(node.func.value) or "").lower() if hasattr(node, "func") else ""


def _cuda_tensor_type(value: Value) -> bool:
    """`"torch.cuda.FloatTensor"` or `torch.cuda.FloatTensor`: a legacy CUDA tensor type."""
    text = value.text if type(value) is Scalar else value.qualname if type(value) is Ref else None
    prefix, _, name = (text or "").rpartition(".")
    return prefix == "torch.cuda" and name in api.LEGACY_CUDA_TYPES


def _option_table(module: Any) -> tuple:
    """(parser, dest, keywords) of each `parser.add_argument(...)` call of `module`: the
    command-line options the module's code declares."""
    found = []
    for node in walk(module) if module is not None else ():
        if type(node) is cst.Call and type(node.func) is cst.Attribute and \
                node.func.attr.value == "add_argument":
            keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
            found.append((dotted(node.func.value), _option_dest(node, keywords), keywords))
    return tuple(found)


def _option_defaults(table: tuple) -> dict:
    """dest -> the string default of each option of `table` (`_option_table`; one per dest: a
    name two options share has none)."""
    found: dict = {}
    for _, dest, keywords in table:
        if dest:
            default = string_value(keywords["default"]) if "default" in keywords else None
            found[dest] = default if dest not in found else None
    return found


def _holds_submodule(owner: Value, module: Module) -> bool:
    """Whether `owner` already holds `module` (the same object) as one of its attributes."""
    return bool(module.ident) and type(owner) is Module and any(
        type(inner) is Module and inner.ident == module.ident for _, inner in owner.attrs)


def _option_dest(call: cst.Call, keywords: dict) -> Optional[str]:
    """The attribute `parse_args()` sets for an `add_argument(...)` call: its `dest=`, else its
    first long option (`--gpu-id` -> `gpu_id`)."""
    dest = string_value(keywords["dest"]) if "dest" in keywords else None
    if dest is None:
        options = [string_value(a.value) for a in call.args if a.keyword is None]
        longs = [o for o in options if o and o.startswith("--")]
        dest = longs[0][2:].replace("-", "_") if longs else None
    return dest


def _nccl_only(module: Any, options: dict) -> bool:
    """(`options`: the string defaults of the module's command-line options.)"""
    if module is None:
        return False
    calls, literals = [], {}
    for node in walk(module):
        kind = type(node)
        if kind is cst.Call and (dotted(node.func) or "").endswith("init_process_group"):
            calls.append(node)
        elif kind is cst.Assign and len(node.targets) == 1:
            target = dotted(node.targets[0].target)
            if target:
                literals.setdefault(target, set()).add(string_value(node.value))
        elif kind is cst.Param and node.default is not None:
            # `def setup_dist(backend="nccl")`: the backend its callers leave as it is
            literals.setdefault(node.name.value, set()).add(string_value(node.default))
    if not calls:
        return False
    for call in calls:
        backend = next((a.value for a in call.args if a.keyword is not None and
                        a.keyword.value == "backend"), None)
        if backend is None and call.args and call.args[0].keyword is None:
            backend = call.args[0].value
        if backend is None:
            return False  # the default: gloo for CPU tensors too
        text = string_value(backend)
        if text is None:
            text = next(iter(literals.get(dotted(backend) or "", ())), None) if len(
                literals.get(dotted(backend) or "", ())) == 1 else None
        if text is None and type(backend) is cst.Attribute:
            text = options.get(backend.attr.value)  # `backend=args.backend`, default "nccl"
        if text != "nccl":
            return False
    return True


def _template(value: Value) -> str:
    if type(value) is Scalar and value.template is not None:
        return value.template
    return "{}"


def _hook_written(cls: Any, attr: str) -> bool:
    """`self.<attr>` is set by a method registered as a hook (`self._encoded = torch.empty(0)`,
    then set by a forward hook each time the hooked layer runs): what `__init__` left there is a
    placeholder, not what the other methods read."""
    return cls is not None and any(attr in c.hook_written for c in cls.mro())


def _per_rank(*parts: tuple) -> bool:
    """Any of the (node, value) parts of a path is the process's rank, or a path built from it:
    `"queue" + str(args.rank)`, `f"{local_rank}"`, `os.environ["LOCAL_RANK"]`."""
    from devlint.lint.syntax import identifier_words

    for node, value in parts:
        if type(value) is Scalar and (value.per_rank or value.text is not None):
            if value.per_rank:
                return True
            continue  # a literal: "ranking.pt" names no rank
        if node is not None and any(names.RANK_NAME.match(word) for word in identifier_words(node)):
            return True
    return False


def _concat(left: str, right: str) -> str:
    return left + right


_MIRROR = {cst.LessThan: cst.GreaterThan, cst.GreaterThan: cst.LessThan,
           cst.LessThanEqual: cst.GreaterThanEqual, cst.GreaterThanEqual: cst.LessThanEqual}


_NUMBER_TESTS = {cst.Equal: eq, cst.NotEqual: ne, cst.LessThan: lt, cst.LessThanEqual: le,
                 cst.GreaterThan: gt, cst.GreaterThanEqual: ge}


# The class of a value proven a tensor (`type(t)`): no NumPy array, list or number class.
TENSOR_CLASS = Scalar(text="<class 'torch.Tensor'>")
# The class of a value devlint knows nothing of (`type(x)` of a parameter).
UNKNOWN_CLASS = Scalar(text="<class of unknown data>")


def _constant_comparison(lnode: Any, left: Value, operator: type, rnode: Any,
                         right: Value) -> Optional[bool]:
    """A comparison the model can evaluate in both worlds: two known numbers (`N > 0` of a
    caller's `N=-1`), or `x is None` of a name that holds the `None` it was given (a parameter
    left at its default `None`). A value that may be None on some paths is not `NONE` itself
    (a join keeps the other path's kind), so only the literal's own value answers."""
    if type(left) is Scalar and type(right) is Scalar and left.number is not None and \
            right.number is not None and operator in _NUMBER_TESTS:
        return _NUMBER_TESTS[operator](left.number, right.number)
    if operator in (cst.Is, cst.IsNot):
        for value, other in ((left, rnode), (right, lnode)):
            if is_none_literal(other) and value is NONE:
                return operator is cst.Is
    if operator in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual):
        # `if model is None: model = load(config)` of a caller that handed its model (a
        # module on every path to here, never None, whose class compares by identity)
        for value, other in ((left, rnode), (right, lnode)):
            if is_none_literal(other) and type(value) is Module and not value.nullable and \
                    not value.assumed and (value.cls is None or value.cls.lookup("__eq__") is None):
                return operator in (cst.IsNot, cst.NotEqual)
    return None


def literal_value(node: Any) -> Optional[Any]:
    """The value of a string or integer literal (`'lsgan'`, `3`), else None."""
    if type(node) is cst.SimpleString:
        return string_value(node)
    if type(node) is cst.Integer:
        try:
            return int(node.value, 0)
        except ValueError:
            return None
    return None


def _same_text(left: Value, right: Value) -> Optional[bool]:
    """Whether two known strings are the same; None unless both are."""
    if type(left) is Scalar and type(right) is Scalar and left.text is not None and \
            right.text is not None and left.number is None and right.number is None and \
            not left.per_rank and not right.per_rank:
        return left.text == right.text
    return None


def _device_comparison(left: Value, operator: type, right: Value) -> Optional[Flag]:
    """`device == 'cuda'`, `device.type != 'cpu'`, `torch.cuda.device_count() > 1`,
    `args.gpu is not None`: what they are in each world."""
    if left is DEVICE_COUNT or (type(left) is Scalar and left.text == DEVICE_COUNT.text):
        if type(right) is Scalar and right.number is not None:
            return _count_comparison(operator, right.number)
        if operator in (cst.GreaterThan, cst.GreaterThanEqual):
            # `device_count() > local_rank`: no count of GPUs is enough on a machine without one.
            return Flag(None, False, availability=True)
        return None
    if type(right) is Device and right.accel == right.cpu and right.accel in ("host", "accel"):
        # `device == CPU` with `CPU = torch.device("cpu")`: the same test as `device == "cpu"`
        right = Scalar(text="cpu" if right.accel == "host" else "cuda")
    if type(right) is not Scalar:
        return None
    if type(left) is Scalar and left.text == BACKEND.text and right.text == "nccl":
        # `dist.get_backend() == "nccl"`: never so on a machine without a GPU
        if operator in (cst.Equal, cst.Is):
            return Flag(None, False, availability=True)
        if operator in (cst.NotEqual, cst.IsNot):
            return Flag(None, True, availability=True)
        return None
    if type(left) is Device:
        accel, cpu = left.accel, left.cpu
    elif type(left) is Opaque and left.name and names.names_device(left.name):
        accel, cpu = "accel", None
    elif type(left) is Opaque and left.name and names.device_flag(left.name) is not None:
        return _flag_comparison(names.device_flag(left.name), operator, right)
    else:
        return None
    text = right.text
    if text is None:
        return None
    is_cpu = text == "cpu"
    is_accel = bool(api.DEVICE_LITERAL.match(text)) or text in api.ACCELERATOR_KINDS

    def world(kind: Optional[str]) -> Optional[bool]:
        if kind is None or not (is_cpu or is_accel):
            return None
        same = (kind == "host") == is_cpu
        if operator in (cst.Equal, cst.Is, cst.In):
            return same
        if operator in (cst.NotEqual, cst.IsNot, cst.NotIn):
            return not same
        return None

    return Flag(world(accel), world(cpu if cpu is not None else "host" if accel == "accel" else None))


def _count_comparison(operator: type, number: float) -> Optional[Flag]:
    accel = {(cst.GreaterThan, 0): True, (cst.GreaterThanEqual, 1): True, (cst.NotEqual, 0): True,
             (cst.Equal, 0): False, (cst.LessThan, 1): False}.get((operator, number))
    zero = {cst.GreaterThan: 0 > number, cst.GreaterThanEqual: 0 >= number, cst.Equal: number == 0,
            cst.NotEqual: number != 0, cst.LessThan: 0 < number, cst.LessThanEqual: 0 <= number}
    one = {cst.GreaterThan: 1 > number, cst.GreaterThanEqual: 1 >= number, cst.Equal: number == 1,
           cst.NotEqual: number != 1, cst.LessThan: 1 < number, cst.LessThanEqual: 1 <= number}
    return Flag(accel, zero.get(operator), availability=True, one_gpu=one.get(operator))


def _flag_comparison(choice: bool, operator: type, right: Scalar) -> Optional[Flag]:
    """`args.gpu is not None`, `args.gpu >= 0`, `args.gpu == -1`: a flag naming a GPU."""
    chooses_cpu = None
    if right.text is None and right.number is None and operator in (cst.Is, cst.Equal):
        chooses_cpu = True
    elif right.text is None and right.number is None and operator in (cst.IsNot, cst.NotEqual):
        chooses_cpu = False
    elif right.number is not None:
        if operator in (cst.GreaterThanEqual,) and right.number >= 0:
            chooses_cpu = False
        elif operator is cst.Equal and right.number < 0:
            chooses_cpu = True
        elif operator in (cst.LessThan,) and right.number <= 0:
            chooses_cpu = True
        elif operator is cst.NotEqual and right.number < 0:
            chooses_cpu = False
    if chooses_cpu is None:
        return None
    accel_world = not chooses_cpu if choice else chooses_cpu
    return Flag(accel_world, not accel_world)


def _device_text(value: Value) -> Optional[str]:
    """What a device or a CUDA or CPU string is in the accelerator world ('accel', 'host'),
    or None for anything else."""
    if type(value) is Device:
        return value.accel
    if _is_cpu_text(value):
        return "host"
    if type(value) is Scalar and value.text is not None and api.CUDA_LITERAL.match(value.text):
        return "accel"
    return None


def _conditional_string_device(text: Scalar, cpu: Optional[str]) -> Device:
    """The device string one arm of a condition chose, with `cpu` for the CPU world: a fixed
    GPU (`"cuda:0" if use_cuda else "cpu"`) keeps its literal and its number (DEV013)."""
    index = api.FIXED_CUDA_INDEX.match(text.text or "")
    return Device("accel", cpu, text.node if index else None,
                  int(index.group(1)) if index else None, conditional=True)


def _choose(test: Flag, body: Value, orelse: Value) -> Value:
    """`a if c else b`: the accelerator world's arm; a device keeps the CPU world's arm."""
    if test.accel is True:
        chosen = body
    elif test.accel is False:
        chosen = orelse
    else:
        chosen = join(body, orelse)
    if test.accel is True and test.cpu is None and chosen is not orelse and \
            _device_text(chosen) == "accel" and _device_text(orelse) == "host":
        # `t.device('cuda') if opt.gpu else t.device('cpu')` of a switch set by hand
        # (`gpu = True` in a config class): which arm a machine without a GPU takes is unknown
        if type(chosen) is Scalar:
            return _conditional_string_device(chosen, None)
        return Device("accel", None, None, chosen.index, conditional=True)
    if type(chosen) is Flag and test.cpu is not None and test.accel is not None and test.accel != test.cpu:
        # `cuda = True if torch.cuda.is_available() else False`: each world takes its arm.
        other = body if test.cpu else orelse
        if type(other) is Flag:
            return Flag(chosen.accel, other.cpu, chosen.availability or test.availability)
    if type(chosen) is Ref and (test.cpu is not None and test.accel != test.cpu or
                                test.cpu is None and test.accel is True):
        # (a flag devlint cannot evaluate without a GPU, `torch.cuda if cuda else torch` of a
        # `cuda` parameter: a machine without one may take the other arm)
        other = (body if test.cpu else orelse) if test.cpu is not None else orelse
        if type(other) is Ref and other is not chosen:
            return replace(chosen, cpu=other.qualname)
    if type(chosen) is Device and test.cpu is not None:
        other = body if test.cpu else orelse
        cpu = other.cpu if type(other) is Device else "host" if _is_cpu_text(other) else None
        return replace(chosen, cpu=cpu)
    if type(chosen) is Scalar and chosen.text is None and (chosen.template or "").startswith(
            "cuda") and test.accel is not None and test.cpu is not None:
        other = body if test.cpu else orelse
        if chosen is not other and (_is_cpu_text(other) or (
                type(other) is Device and other.cpu == "host")):
            return Device("accel", "host", None)  # `f"cuda:{rank}" if use_cuda else "cpu"`
    if type(chosen) is Scalar and chosen.text is not None and test.accel is not None and test.cpu is not None:
        other = body if test.cpu else orelse
        other_cpu = other.cpu if type(other) is Device else "host" if _is_cpu_text(other) else None
        if chosen is not other and other_cpu == "host" and api.DEVICE_LITERAL.match(chosen.text):
            return _conditional_string_device(chosen, "host")  # `"cuda:0" if use_cuda else "cpu"`
        other_text = other.text if type(other) is Scalar else None
        if chosen is not other and other_text and api.DEVICE_LITERAL.match(chosen.text) and \
                api.DEVICE_LITERAL.match(other_text):
            # `"cuda:1" if a else "cuda:0"`: a GPU either way, named where the first arm is.
            return Device("accel", "accel", chosen.node, conditional=True)
        if chosen is not other:
            # `"nccl" if torch.cuda.is_available() else "gloo"`: one string per world; neither is
            # the value everywhere.
            return replace(chosen, node=None, template=None)
    return chosen


def _index_literals(node: Any) -> list:
    """The GPU numbers of `device_ids=[0]`, `output_device=0`, `[0] if use_cuda else None`."""
    if type(node) is cst.IfExp:
        return _index_literals(node.body) + _index_literals(node.orelse)
    if type(node) is cst.List:
        return [e.value for e in node.elements if type(e.value) is cst.Integer]
    return [node] if type(node) is cst.Integer else []


def _is_cpu_text(value: Value) -> bool:
    return type(value) is Scalar and value.text == "cpu"


Evaluator._dispatch = {
    cst.Name: Evaluator._name,
    cst.Attribute: Evaluator._attribute,
    cst.Call: Evaluator._call,
    cst.SimpleString: Evaluator._string,
    cst.ConcatenatedString: Evaluator._concatenated,
    cst.FormattedString: Evaluator._fstring,
    cst.Integer: Evaluator._number,
    cst.Float: Evaluator._number,
    cst.Imaginary: lambda self, node, st: Scalar(),
    cst.Tuple: Evaluator._sequence,
    cst.List: Evaluator._sequence,
    cst.Set: Evaluator._sequence,
    cst.Dict: Evaluator._dict,
    cst.ListComp: Evaluator._comprehension,
    cst.SetComp: Evaluator._comprehension,
    cst.GeneratorExp: Evaluator._comprehension,
    cst.DictComp: Evaluator._comprehension,
    cst.Lambda: Evaluator._lambda,
    cst.BinaryOperation: Evaluator._binary,
    cst.UnaryOperation: Evaluator._unary,
    cst.BooleanOperation: Evaluator._boolean,
    cst.Comparison: Evaluator._comparison,
    cst.IfExp: Evaluator._ifexp,
    cst.NamedExpr: Evaluator._named,
    cst.Subscript: Evaluator._subscript,
    cst.Ellipsis: lambda self, node, st: Scalar(),
    cst.Await: lambda self, node, st: self.eval(node.expression, st),
    cst.StarredElement: lambda self, node, st: self.eval(node.value, st),
    cst.Yield: lambda self, node, st: self.yielded(node, st),
}


def gpu_device_ids(call: cst.Call) -> bool:
    """`DistributedDataParallel(net, device_ids=[rank])`: a list of GPUs, which only a module on
    a GPU accepts (see `Evaluator.needs_gpu_module`)."""
    ids = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "device_ids"),
               call.args[1].value if len(call.args) > 1 and call.args[1].keyword is None else None)
    return _names_gpus(ids)


def _names_gpus(ids: Any) -> bool:
    """A `device_ids` written as a list or tuple with elements."""
    return type(ids) in (cst.List, cst.Tuple) and bool(ids.elements)


def hand_set_switch(name: str, node: Any, value: Value) -> Value:
    """`use_cuda = True`, `use_gpu=True`: a name that says it chooses the accelerator, given a
    literal `True` in the code, is the user's switch to flip (as a command-line flag's default
    is), not a choice of the program: which way a machine without a GPU sets it is unknown.
    So is such a name given a config's `True` (`GPU = cfg_mnet["gpu_train"]`)."""
    literal = type(node) is cst.Name and node.value == "True"
    configured = type(node) in (cst.Subscript, cst.Attribute) and type(value) is Flag and \
        value.accel is True and value.cpu is True
    if (literal or configured) and names.device_flag(name) is True:
        return Flag(True, None)
    return value


def _full_reduction(name: str, operands: list, kwargs: dict) -> bool:
    """`x.mean()`, `torch.var(x)`: a reduction over every element (no `dim`), one number, a
    0-dim tensor. `operands`: the arguments besides the tensor reduced."""
    return name in api.FULL_REDUCTIONS and not operands and not ({"dim", "axis"} & kwargs.keys())


def _container_source(node: Any) -> Any:
    """The container a wrapper's argument reads: `self.convs` of `list(self.convs.values())`,
    `self.blocks.values()` or `tuple(self.layers)` (monodepth2's pose network registers its
    dict of convolutions as `nn.ModuleList(list(self.convs.values()))`)."""
    while type(node) is cst.Call:
        if type(node.func) is cst.Name and node.func.value in ("list", "tuple") and len(node.args) == 1:
            node = node.args[0].value
        elif type(node.func) is cst.Attribute and node.func.attr.value in ("values", "items") and \
                not node.args:
            node = node.func.value
        else:
            break
    return node
