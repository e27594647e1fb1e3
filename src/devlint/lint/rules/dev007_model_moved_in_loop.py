from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.conventions import TENSOR_WORDS, names_model
from devlint.lint.model.observations import Transfer
from devlint.lint.model.state import LoopInfo
from devlint.lint.model.torch_api import TRAINING_METHODS
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code
from devlint.lint.syntax import content_children, dotted, walk


class ModelMovedInLoop(Rule):
    code = "DEV007"
    name = "model-moved-in-loop"
    fix_kind = Applicability.UNSAFE
    summary = "A model is moved to the device on every iteration of the training loop."
    what = """
        Finds `model.to(device)`, `model = model.to(device)` and `model.cuda()` inside a training
        loop (a loop over a data loader, or one whose body calls `backward()` or an optimizer's
        `step()`, and the loops around it), or inside a loop that runs that model (a sampling
        loop calling `model(x, t)` at every step), when the model was bound before the loop. Also the
        models of a list bound before the loop, moved one by one in it (`for t in teachers:
        t.to(device)` for every batch), and a model moved by a helper of this file that such a
        loop calls with the same model on every iteration (`train_step(model, batch, ...)`,
        whose first line is `model.to(device)`). Loops between the move and a training loop
        around it that do not train themselves (MAML's task loop inside the meta-training
        loop) repeat the move with it.
    """
    silent = """
        When the loop binds the model or the device itself (a model per fold, a device per
        iteration), when the loop also moves the model back to the CPU (deliberate offloading)
        or to two different devices in turn (a round trip to publish its weights), when the
        move (or the call of the helper that moves) runs only under an `if` whose test takes a
        remainder (`if (e + 1) % print_per == 0:`: once every so many iterations),
        when the loop sets a new part on the model before the move (a class-incremental
        learner's new head per task, set there or by a method of the same object it calls: the
        move places it),
        and for a loss or a torchmetrics metric moved in the loop (a few counters, no weights).
    """
    why = """
        Moving a module walks all of its parameters and buffers. After the first iteration
        they are already on the device, so every later call is wasted work on the hot path,
        and a model moved inside the loop after the optimizer was built makes readers wonder
        which parameters the optimizer holds. Move the model once, before the loop.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in loader:
            model.to(device)
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model.to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
    """
    fix = """
        Hoist the move above the outermost loop it repeats in (an unsafe fix: it moves code).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        for move in model.obs.transfers:
            if id(move.node) in reported or not self.moves_a_model(move):
                continue
            loops = self.repeating_loops(move)
            if loops and _periodic(move.where.loops[-1].node, move.node):
                continue  # `if step % 100 == 0: model.to(device)`: once every 100 steps
            if not loops and move.caller is not None:
                loops = self.caller_loops(move)
                if loops and _periodic(move.caller[1][-1].node, move.caller[0]):
                    # FedDyn's `if (e+1) % print_per == 0: get_acc_loss(..., model, ...)`: the
                    # helper runs every `print_per` epochs, not on every iteration
                    continue
                if loops:
                    reported.add(id(move.node))
                    function = move.where.function
                    yield self.finding(
                        move.node,
                        f"`{dotted(move.receiver)}` is moved to the device on every call of "
                        f"`{function.name}`, which the loop at line {{related_line}} calls on every "
                        f"iteration with the same `{dotted(move.caller[0])}`; move it once, before "
                        f"that loop", related_node=loops[0].node, related_label="the loop")
                continue
            if not loops or _restructured(move, loops[-1]):
                continue
            reported.add(id(move.node))
            key = dotted(move.receiver)
            walked = loops[-1] is not move.where.loops[-1]  # `for t in teachers: t.to(device)`
            message = (
                f"`{key}` is moved to the device on every iteration of this loop; move it "
                f"once before the loop (line {{related_line}})"
            )
            yield self.finding(
                move.node, message, related_node=loops[0].node, related_label="the loop",
                fix=None if walked else self.fix_for(move, loops[0]),
            )

    @staticmethod
    def moves_a_model(move: Transfer) -> bool:
        key = dotted(move.receiver)
        if key is None or move.after.place.name != "DEVICE":
            return False
        kind = type(move.before).__name__
        if kind == "Module":
            # (a torchmetrics metric moved with every batch holds a few counters: no model's
            # weights are walked again)
            return not move.before.loss and not move.before.metric
        return kind in ("Opaque", "Tensor") and names_model(key) and \
            not getattr(move.before, "plain", False) and TENSOR_WORDS.search(key.rsplit(".", 1)[-1]) is None

    @staticmethod
    def repeating_loops(move: Transfer) -> list[LoopInfo]:
        """The loops, outermost first, that repeat the move of the same model to the same
        device: from the innermost loop outwards while none of them binds the model or the
        device, offloads the model, or stops being a training loop."""
        found: list[LoopInfo] = []
        key = dotted(move.receiver) or ""
        root = key.split(".", 1)[0]
        loops = list(move.where.loops)
        walked = bool(loops) and ModelMovedInLoop.walks_fixed_models(loops[-1], root, loops)
        if walked:
            # `for t in teachers: t.to(device)` in a training loop: the same models, listed
            # before the loops, are moved again on every iteration of the loops around it (which
            # bind `t` only by holding that loop)
            loops.pop()
        read = [name for name in move.names_read if not (walked and name == root)]
        return _repeating(loops, key, root, read, bound_here=not walked)

    @staticmethod
    def caller_loops(move: Transfer) -> list[LoopInfo]:
        """`train_step(model, batch, ...)` called in the loop over the loader, whose body runs
        `model.to(device)`: the loops of the caller, outermost first, that repeat the move of
        the same model (one their bodies do not bind) to the same device."""
        argument, enclosing, spelled = move.caller
        key = dotted(argument)
        if key is None:
            return []
        read = [(spelled.get(name) or name).split(".", 1)[0] for name in move.names_read]
        # `train_step(args, model, optimizer, batch)`, whose own body steps the optimizer:
        # the loop calling it on every iteration trains, though its body names no step
        function = move.where.function
        trains = function is not None and type(function.node) is cst.FunctionDef and \
            _steps(function.node.body)
        return _repeating(list(enclosing), key, key.split(".", 1)[0], read, callee_trains=trains)

    @staticmethod
    def walks_fixed_models(loop: LoopInfo, root: str, loops: list) -> bool:
        """Whether `loop` is `for root in models:` over a name no loop around the move binds."""
        node = loop.node
        if type(node) is not cst.For or type(node.target) is not cst.Name or \
                node.target.value != root or dotted(node.iter) is None:
            return False
        walked = dotted(node.iter).split(".", 1)[0]
        return len(loops) > 1 and walked != root and not any(walked in other.binds for other in loops)

    @staticmethod
    def fix_for(move: Transfer, loop: LoopInfo) -> Optional[Fix]:
        statement = move.statement
        if statement is None:
            return None
        inner = move.where.loops[-1].node.body
        if not (type(inner) is cst.IndentedBlock and len(inner.body) > 1 and
                any(s is statement for s in inner.body)):
            return None  # only a line of the loop body itself can be hoisted whole
        text = code(statement.body[0])
        if "\n" in text or "\r" in text:
            return None
        return Fix(
            f"move `{dotted(move.receiver)}` once, before the loop", Applicability.UNSAFE,
            (Edit("delete", statement), Edit("insert_before", loop.node, text)),
        )


def _restructured(move: Transfer, loop: LoopInfo) -> bool:
    """Whether the loop sets a new part on the model it moves (`self.model.module.fc = fc` of an
    `incremental_weight(task)` it calls first, a class-incremental learner's new head per task):
    then the move places that part, and is no repeat."""
    key = dotted(move.receiver)
    if not key:
        return False
    bodies = [loop.node.body]
    function = move.where.function
    cls = function.cls if function is not None else None
    if cls is not None and key.startswith("self."):
        # the loop's own facts name the methods of `self` it calls (`self.expand_head`)
        for called in sorted(loop.runs):
            receiver, _, method = called.rpartition(".")
            if receiver == "self":
                node = getattr(getattr(cls.lookup(method), "info", None), "node", None)
                if type(node) is cst.FunctionDef:
                    bodies.append(node.body)
    for body in bodies:
        for sub in walk(body):
            if type(sub) is cst.Assign and type(sub.value) in (cst.Call, cst.Name, cst.Attribute) and \
                    not (type(sub.value) is cst.Name and sub.value.value in ("None", "True", "False")) and \
                    any(type(target.target) is cst.Attribute and
                        (dotted(target.target) or "").startswith(key + ".") for target in sub.targets):
                return True
    return False


def _periodic(loop: Any, target: Any) -> bool:
    """Whether `target`, inside the body of `loop`, runs only under an `if` of that body whose
    test takes a remainder (`if (e + 1) % print_per == 0:`): once every so many iterations, not
    on every one."""
    stack = [(loop.body, False)]
    while stack:
        node, periodic = stack.pop()
        if node is target:
            return periodic
        if type(node) in (cst.For, cst.While) and node is not loop:
            periodic = False  # a loop of its own inside: its iterations are not the outer one's
        children = list(content_children(node))
        if type(node) is cst.If:
            test = any(type(sub) is cst.BinaryOperation and type(sub.operator) is cst.Modulo
                       for sub in walk(node.test))
            stack.extend((child, periodic or (test and child is node.body)) for child in children)
        else:
            stack.extend((child, periodic) for child in children)
    return False


def _steps(body) -> bool:
    """Whether code trains (`loss.backward()`, `optimizer.step()`), as a loop's facts say."""
    return any(type(sub) is cst.Call and type(sub.func) is cst.Attribute and
               sub.func.attr.value in TRAINING_METHODS for sub in walk(body))


def _repeating(loops: list, key: str, root: str, read: list, bound_here: bool = True,
               callee_trains: bool = False) -> list:
    """The loops, outermost first, from the innermost outwards while each trains, does not move
    `key` back to the CPU, binds none of the names the move reads, and (`bound_here`) does not
    bind the model itself. `callee_trains`: the innermost loop calls a function that trains."""
    found: list[LoopInfo] = []
    between: list[LoopInfo] = []  # loops that do not train, inside one that may
    for loop in reversed(loops):
        # (a sampling or evaluation loop that runs the model it moves repeats the move too)
        trains = loop.trains or (callee_trains and not found and not between) or key in loop.runs
        if key in loop.offloads:
            break
        if bound_here and (key in loop.binds or root in loop.binds):
            break
        if any(name in loop.binds for name in read):
            break
        if not trains:
            if found:
                break
            # `for _ in range(meta_batch): model.to(device); adapt(model, ...)` inside the
            # meta-training loop: the move repeats with every iteration of the loop that trains
            between.insert(0, loop)
            continue
        found[:0] = [loop] + between
        between = []
    return found
